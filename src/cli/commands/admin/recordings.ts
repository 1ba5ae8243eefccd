/** `confctl admin recordings finish|fail`: registration only; the actions load when one runs. */
import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { examples } from '../../help.js';
import { DATA, DATABASE, MEDIA, TENANT, commonOptions } from './flags.js';

export function register(admin: Command, ctx: CliContext): void {
  const recordings = admin.command('recordings').description("Finish or fail recordings (the provider's side)").addHelpText('after', examples('confctl admin recordings finish 5 --file ./talk.wav'));
  recordings
    .command('finish <id>')
    .description('Mark a recording Finished and store its media file (a generated WAV without --file)')
    .option(...DATA)
    .option(...DATABASE)
    .option(...MEDIA)
    .option(...TENANT)
    .option('--file <path>', 'media file to copy into the media directory')
    .addHelpText('after', examples('confctl admin recordings finish 5 --file ./talk.wav', 'confctl admin recordings finish 5 --media /srv/confctl-media   # a media volume shared by instances'))
    .action(async (id: string, flags: { tenant?: string; file?: string }, cmd: Command) =>
      (await import('./recordings-run.js')).recordingFinish({ id, tenant: flags.tenant, file: flags.file, ...commonOptions(cmd) }, ctx),
    );
  recordings
    .command('fail <id>')
    .description('Mark a recording Failed')
    .option(...DATA)
    .option(...DATABASE)
    .option(...TENANT)
    .addHelpText('after', examples('confctl admin recordings fail 5'))
    .action(async (id: string, flags: { tenant?: string }, cmd: Command) => (await import('./recordings-run.js')).recordingFail({ id, tenant: flags.tenant, ...commonOptions(cmd) }, ctx));
}
