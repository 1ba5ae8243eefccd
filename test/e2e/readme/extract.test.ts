import { describe, expect, it } from 'vitest';
import { ConventionError, extractSections, splitComment } from './extract.js';

const fence = '```';
const md = (...lines: string[]) => lines.join('\n');

describe('README example extraction', () => {
  it('makes a section of every ## and ### heading; #### and headings inside fences stay in theirs', () => {
    const sections = extractSections(md(
      '# Title', '## One', `${fence}sh`, '# a comment, not a heading', 'echo 1', fence,
      '### Two', '#### Detail', `${fence}sh`, 'echo 2', fence, '## Three',
    ));
    expect(sections.map((s) => [s.title, s.line])).toEqual([['One', 2], ['Two', 7], ['Three', 12]]);
    expect(sections[0].blocks[0].commands).toEqual([{ line: 5, text: 'echo 1', expectedExit: 0 }]);
    expect(sections[1].blocks[0].commands.map((c) => c.text)).toEqual(['echo 2']);
  });

  it('runs sh blocks only: no-test blocks, other languages and bare fences do not run', () => {
    const [s] = extractSections(md(
      '## S', `${fence}sh no-test`, '# long-running', 'confctl serve', fence,
      `${fence}json`, '{}', fence, `${fence}text`, 'confctl serve [--port N]', fence, fence, 'src/  code', fence,
    ));
    expect(s.blocks).toEqual([{ line: 2, runs: false, source: '# long-running\nconfctl serve', dataDirOnly: false, commands: [] }]);
  });

  it('marks sh data-dir blocks: they run, on a data directory only', () => {
    const [s] = extractSections(md('## S', `${fence}sh`, 'confctl a', fence, `${fence}sh data-dir`, '# a data directory only', 'confctl backup', fence));
    expect(s.blocks).toEqual([
      { line: 2, runs: true, source: 'confctl a', dataDirOnly: false, commands: [{ line: 3, text: 'confctl a', expectedExit: 0 }] },
      { line: 5, runs: true, source: '# a data directory only\nconfctl backup', dataDirOnly: true, commands: [{ line: 7, text: 'confctl backup', expectedExit: 0 }] },
    ]);
  });

  it('joins continuation lines, drops trailing and comment-only lines, and reads # exit N', () => {
    const [s] = extractSections(md(
      '## S', `${fence}sh`,
      "confctl a --x 'p # q' \\", '  --y "#z"   # first', '      # a comment-only line', '',
      'confctl b        # exit 5', 'confctl c        # exit 6: Validation failed.', 'confctl d   # the exit 4 case elsewhere',
      fence,
    ));
    expect(s.blocks[0].commands).toEqual([
      { line: 3, text: "confctl a --x 'p # q' \\\n  --y \"#z\"", expectedExit: 0 },
      { line: 7, text: 'confctl b', expectedExit: 5 },
      { line: 8, text: 'confctl c', expectedExit: 6 },
      { line: 9, text: 'confctl d', expectedExit: 0 },
    ]);
  });

  it('refuses what breaks the convention, naming the line', () => {
    const refused = (text: string, message: RegExp) => {
      expect(() => extractSections(text)).toThrow(ConventionError);
      expect(() => extractSections(text)).toThrow(message);
    };
    refused(md('## S', `${fence}bash`, 'ls', fence), /line 2: ```bash block: write ```sh/);
    refused(md('## S', `${fence}console`, '$ ls', fence), /line 2: ```console/);
    refused(md('## S', `${fence}sh no-test`, 'npm link', fence), /line 3: a sh no-test block starts with a comment saying why/);
    refused(md('## S', `${fence}sh data-dir`, 'confctl admin backup', fence), /line 3: a sh data-dir block starts with a comment saying why it runs against a data directory only/);
    refused(md('## S', `${fence}sh skip`, 'ls', fence), /unknown fence flag 'skip' \(known: no-test, data-dir\)/);
    refused(md('## S', `${fence}sh no-test data-dir`, '# why', fence), /unknown fence flag 'no-test data-dir'/);
    refused(md('## S', `${fence}sh no-test`, '# would run forever', 'sleep 1000', fence), /line 3: a sh no-test block's reason starts with one of: needs, starts, long-running, interactive, changes/);
    refused(md('## S', `${fence}sh`, 'confctl x   # exit 5 once it started', fence), /line 3: write an expected exit code as '# exit N'/);
    refused(md('## S', `${fence}sh`, 'cat <<EOF', 'x', 'EOF', fence), /line 3: here-documents are not supported/);
    refused(md('## S', `${fence}sh`, 'ls \\', fence), /line 3: the command's last line ends with a continuation/);
    refused(md('## S', `${fence}sh`, 'ls'), /line 2: code fence never closed/);
    refused(md(`${fence}sh`, 'ls', fence), /line 1: a sh block before the first ## heading/);
  });

  it('names the document in its errors and sections', () => {
    expect(() => extractSections(md('## S', `${fence}bash`, 'ls', fence), 'docs/guide.md')).toThrow(/^docs\/guide\.md line 2: /);
    expect(extractSections(md('## S'), 'docs/guide.md')[0].doc).toBe('docs/guide.md');
    expect(() => extractSections(md('## S', `${fence}bash`, 'ls', fence))).toThrow(/^README line 2: /);
  });

  it('reads CRLF line ends as LF', () => {
    const [s] = extractSections(['## S', `${fence}sh no-test`, '# needs why', fence, `${fence}sh`, 'confctl a   # exit 4', fence].join('\r\n'));
    expect(s.blocks.map((b) => b.runs)).toEqual([false, true]);
    expect(s.blocks[1].commands).toEqual([{ line: 6, text: 'confctl a', expectedExit: 4 }]);
  });

  it('splits a comment where the shell would', () => {
    expect(splitComment('a # b')).toEqual({ code: 'a ', comment: ' b' });
    expect(splitComment("echo '# no' \"# no\" a#b ${#x} \\# no")).toEqual({ code: "echo '# no' \"# no\" a#b ${#x} \\# no" });
    expect(splitComment('# all')).toEqual({ code: '', comment: ' all' });
  });
});
