#!/usr/bin/perl
# `confctl` in the shell of the manual's examples (readme/section-env.ts): sends its command line,
# environment and working directory to the harness's socket (cli-socket.ts), which runs it in a
# CLI runner, and writes what comes back to its own stdout and stderr, exiting with the command's
# code. Its stdin goes to the command only when the command reads it. When the harness says the
# command runs in a process of its own (an environment node reads at start), it becomes that
# process: `exec NODE BIN ARGS`. Usage: `perl cli-client.pl SOCKET NODE BIN ARGS...`.
#
# Perl, not node: the examples run some 380 commands, and a node start costs about 110 ms of CPU
# on the CI machines against about 30 for this script.
#
# The socket's frames (cli-socket.ts, FRAME): a type byte, a 32-bit big-endian length and the
# payload; types 1 stdout, 2 stderr, 3 the command reads its stdin, 4 its exit code, 5 run it in a
# process of its own.
use strict;
use warnings;
use Cwd qw(getcwd);
use Socket qw(PF_UNIX SOCK_STREAM SHUT_WR pack_sockaddr_un);

my ($path, $node, $bin, @args) = @ARGV;

sub fail {
  print STDERR "confctl (test client): $_[0]\n";
  exit 70;
}

# As the bin does (src/cli/main.ts): a reader that went away ends the command quietly.
$SIG{PIPE} = 'IGNORE';

# Writes all of `data` to `handle`; false when the other end has gone.
sub put {
  my ($handle, $data) = @_;
  while (length $data) {
    my $n = syswrite($handle, $data);
    return 0 unless defined $n;
    substr($data, 0, $n) = '';
  }
  return 1;
}

sub json {
  my ($text) = @_;
  $text =~ s/(["\\])/\\$1/g;
  $text =~ s/([\x00-\x1f])/sprintf('\\u%04x', ord $1)/ge;
  return qq("$text");
}

socket(my $socket, PF_UNIX, SOCK_STREAM, 0) or fail("socket: $!");
connect($socket, pack_sockaddr_un($path)) or fail("$path: $!");
my $env = join(',', map { json($_) . ':' . json($ENV{$_}) } sort keys %ENV);
my $header = '{"args":[' . join(',', map { json($_) } @args) . "],\"env\":{$env},\"cwd\":" . json(getcwd()) . "}\n";
put($socket, $header) or fail("$path: $!");

my $buffered = '';
my $stdin_wanted = 0;
while (1) {
  my $ready = '';
  vec($ready, fileno($socket), 1) = 1;
  vec($ready, fileno(STDIN), 1) = 1 if $stdin_wanted;
  if (select($ready, undef, undef, undef) < 0) {
    next if $!{EINTR};
    fail("select: $!");
  }
  if ($stdin_wanted && vec($ready, fileno(STDIN), 1)) {
    my $n = sysread(STDIN, my $data, 65536);
    if ($n) {
      put($socket, $data) or fail("$path: $!");
    } else {
      $stdin_wanted = 0;
      shutdown($socket, SHUT_WR);
    }
  }
  next unless vec($ready, fileno($socket), 1);
  my $n = sysread($socket, my $chunk, 65536);
  fail("$path: $!") unless defined $n;
  fail('the socket closed before the command ended') if $n == 0;
  $buffered .= $chunk;
  while (length($buffered) >= 5) {
    my ($type, $length) = unpack('C N', $buffered);
    last if length($buffered) < 5 + $length;
    my $payload = substr($buffered, 5, $length);
    substr($buffered, 0, 5 + $length) = '';
    if ($type == 1) {
      put(\*STDOUT, $payload) or exit 0;
    } elsif ($type == 2) {
      put(\*STDERR, $payload);
    } elsif ($type == 3) {
      if (defined fileno(STDIN)) {
        $stdin_wanted = 1;
      } else {
        shutdown($socket, SHUT_WR);
      }
    } elsif ($type == 4) {
      exit $payload;
    } elsif ($type == 5) {
      close $socket;
      exec { $node } $node, $bin, @args or fail("$node: $!");
    }
  }
}
