// Latency percentiles for the paced latency scenario, with HdrHistogram (fixed memory whatever
// the count, 3 significant digits). Values are recorded in microseconds.
import hdr from 'hdr-histogram-js';

const ONE_HOUR_US = 3600e6;

export function createLatencyHistogram() {
  const histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: ONE_HOUR_US,
    numberOfSignificantValueDigits: 3,
  });
  return {
    recordNs(latencyNs) {
      histogram.recordValue(Math.max(1, Math.min(ONE_HOUR_US, Math.round(latencyNs / 1000))));
    },
    summaryMs() {
      const at = (percentile) => histogram.getValueAtPercentile(percentile) / 1000;
      return { p50_ms: at(50), p99_ms: at(99), p999_ms: at(99.9), max_ms: histogram.maxValue / 1000 };
    },
  };
}
