/** Runs `confctl webhooks listen` until SIGINT or SIGTERM. */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { closeGracefully, isClosing } from '../../../server/shutdown.js';
import { newSecret } from '../../../webhooks/secret.js';
import { type CliContext, UsageError } from '../../context.js';
import { listenError, urlHost } from '../listen-address.js';
import type { SecretSource } from './secret.js';
import { createReceiver } from './receiver.js';
import { ndjsonLine, type Received, tableHeading, tableRow } from './print.js';

/** Parsed flags of `confctl webhooks listen`. */
export interface ListenOptions {
  port: number;
  host: string;
  secret: SecretSource;
  maxAgeSeconds: number;
  forwardTo?: URL;
  tls?: { certFile: string; keyFile: string };
  format: 'table' | 'ndjson';
}

function readPem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UsageError(`cannot read ${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The URL a sender uses for a listener bound to `host:port`. */
export function listenUrl(tls: boolean, host: string, port: number): string {
  return `${tls ? 'https' : 'http'}://${urlHost(host)}:${port}/`;
}

function createListener(options: ListenOptions, handler: ReturnType<typeof createReceiver>): Server {
  if (!options.tls) return createHttpServer(handler);
  const tls = { cert: readPem(options.tls.certFile, '--cert'), key: readPem(options.tls.keyFile, '--key') };
  try {
    return createHttpsServer(tls, handler);
  } catch (err) {
    throw new UsageError(`--cert and --key are not a usable PEM certificate and key: ${(err as Error).message}`);
  }
}

/**
 * Listens, prints each verified delivery on stdout (a row on a terminal, NDJSON in a pipe) and
 * everything else on stderr: the URL, a made-up secret, refusals and failed forwards.
 */
export async function runListen(options: ListenOptions, ctx: CliContext): Promise<void> {
  const { stdout, stderr } = ctx.streams;
  const secret = options.secret.secret ?? newSecret();
  let rows = 0;
  const print = (r: Received) => {
    if (options.format === 'ndjson') return void stdout.write(ndjsonLine(r));
    stdout.write(`${rows++ === 0 ? tableHeading() : ''}${tableRow(r, ctx.streams.widthKnown === false ? undefined : ctx.streams.width)}`);
  };
  const handler = createReceiver({
    secret,
    maxAgeSeconds: options.maxAgeSeconds,
    forwardTo: options.forwardTo,
    now: ctx.now,
    accepted: print,
    problem: (line) => stderr.write(`${line}\n`),
    closing: () => isClosing(server),
  });
  const server: Server = createListener(options, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  }).catch((err: NodeJS.ErrnoException) => {
    throw listenError(err, options);
  });
  if (options.secret.from === 'none') stderr.write(`No secret given; made one (pair the destination with it):\n  ${secret}\n`);
  const url = listenUrl(Boolean(options.tls), options.host, (server.address() as AddressInfo).port);
  const onward = options.forwardTo ? `, forwarding to ${options.forwardTo.href}` : '';
  stderr.write(`Listening on ${url}${onward} (Ctrl-C to stop)\n`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      closeGracefully(server).then(resolve, resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  stderr.write('Stopped.\n');
}
