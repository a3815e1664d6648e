import { Presets, SingleBar } from 'cli-progress';

/** A live count on the terminal; does nothing when stderr is not a terminal (pipes, files, CI). */
export interface Progress {
  update(value: number): void;
  stop(): void;
  /** One line on stderr (above the bar, which redraws at its next update). */
  log(line: string): void;
}

const SILENT: Progress = {
  update: () => undefined,
  stop: () => undefined,
  log: (line) => process.stderr.write(`${line}\n`),
};

/** A progress bar on stderr, so that stdout keeps only results. `total` 0 means unknown. */
export function progressBar(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (stream.isTTY !== true) return SILENT;
  const bar = new SingleBar(
    {
      stream,
      format:
        total > 0
          ? `${label} [{bar}] {value}/{total} | {speed} msg/s | {duration_formatted}`
          : `${label} {value} | {speed} msg/s | {duration_formatted}`,
      hideCursor: true,
      clearOnComplete: true,
      fps: 10,
    },
    Presets.shades_classic,
  );
  const startedAt = performance.now();
  bar.start(total, 0, { speed: 0 });
  return {
    update: (value) =>
      bar.update(value, { speed: Math.round(perSecond(value, performance.now() - startedAt)) }),
    stop: () => bar.stop(),
    // Erases the bar's line first, so that the text does not run into it.
    log: (line) => stream.write(`\r\x1b[K${line}\n`),
  };
}

export function perSecond(count: number, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : (count * 1000) / elapsedMs;
}

/** "1000 messages in 0.84 s (1190 msg/s)". */
export function countAndRate(count: number, elapsedMs: number): string {
  const noun = count === 1 ? 'message' : 'messages';
  return `${count} ${noun} in ${(elapsedMs / 1000).toFixed(2)} s (${Math.round(perSecond(count, elapsedMs))} msg/s)`;
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(
  headers: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const numeric = headers.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) => {
          const width = widths[column] ?? cell.length;
          return numeric[column] === true ? cell.padStart(width) : cell.padEnd(width);
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A text for one line: control characters escaped, cut to `max` characters with the full size noted. */
export function preview(text: string, max: number): string {
  const quoted = JSON.stringify(text.length > max ? text.slice(0, max) : text);
  return text.length > max ? `${quoted}... (${text.length} characters)` : quoted;
}
