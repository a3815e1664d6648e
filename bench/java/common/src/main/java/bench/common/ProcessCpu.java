package bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time this process has used so far, read from /proc/self/stat as bench/lib/processes.mjs
 * reads a child's: utime + stime in clock ticks (USER_HZ, 100 on Linux). Every JVM thread counts
 * (JIT, GC, Netty), as it does for the broker measured from outside.
 */
final class ProcessCpu {
  private static final double CLOCK_TICKS_PER_S = 100;

  private ProcessCpu() {}

  static double seconds() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // The fields after the command name, which may itself hold spaces: utime, stime are 12th, 13th.
      String[] fields = stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
      return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS_PER_S;
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }
}
