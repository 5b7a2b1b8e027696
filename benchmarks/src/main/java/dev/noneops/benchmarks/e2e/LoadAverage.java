package dev.noneops.benchmarks.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's one-minute load average ({@code /proc/loadavg}), which every row prints beside
 * its wall times: on a shared machine a figure taken under load is labelled as such.
 */
final class LoadAverage {
  private LoadAverage() {}

  /** The one-minute load average, as {@code /proc/loadavg} gives it, or {@code ?}. */
  static String oneMinute() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  /** A clause saying whether the machine was busy at {@code load} (above its CPU count). */
  static String verdict(String load) {
    try {
      return Double.parseDouble(load) > Runtime.getRuntime().availableProcessors()
          ? " (above the CPU count: the machine was busy, with this run's own work or another's;"
              + " wall times stretch with it)"
          : "";
    } catch (NumberFormatException e) {
      return "";
    }
  }
}
