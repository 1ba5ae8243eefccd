/**
 * Generates a short playable PCM WAV file (mono, 16-bit): a sine tone that fades in and out.
 * Used for demo recordings and for `admin recordings finish` without `--file`.
 */
export function generateWav(options: { seconds: number; frequency?: number; sampleRate?: number }): Buffer {
  const sampleRate = options.sampleRate ?? 8000;
  const frequency = options.frequency ?? 440;
  const samples = Math.max(1, Math.round(options.seconds * sampleRate));
  const dataBytes = samples * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  const fade = Math.min(samples / 2, sampleRate / 20);
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - 1 - i) / fade);
    const value = Math.round(Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.3 * 32767 * envelope);
    buf.writeInt16LE(value, 44 + i * 2);
  }
  return buf;
}

/** Length in seconds of a PCM WAV buffer's audio, or undefined when it is not a WAV we can read. */
export function wavDurationSeconds(header: Buffer): number | undefined {
  if (header.length < 44 || header.toString('ascii', 0, 4) !== 'RIFF' || header.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  const byteRate = header.readUInt32LE(28);
  const dataBytes = header.readUInt32LE(40);
  return byteRate > 0 ? dataBytes / byteRate : undefined;
}
