package dev.noneops.cli.output;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * One download as its in-place bar shows it: the bytes received of the total, the mean rate since
 * its first progress event, and the time left at that rate.
 *
 * @param name the download's task, e.g. {@code download-kubelet}
 * @param received bytes received so far
 * @param total the size, or {@code -1} when the server did not say
 * @param first when the download's first progress event came
 * @param last when its latest progress event came
 */
record DownloadBar(String name, long received, long total, Instant first, Instant last) {
  private static final double MIB = 1048576.0;
  private static final int BAR_WIDTH = 24;
  static final Duration MEASURABLE = Duration.ofMillis(100);

  boolean finished() {
    return total > 0 && received >= total;
  }

  /** Bytes a second, over the whole download so far. */
  double rate() {
    long ms = Math.max(Duration.between(first, last).toMillis(), 1);
    return received * 1000.0 / ms;
  }

  /** The time left at {@link #rate()}; empty when the size or the rate is unknown. */
  Optional<Duration> eta() {
    double rate = rate();
    if (total <= 0 || rate <= 0 || received <= 0) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofMillis((long) ((total - received) * 1000.0 / rate)));
  }

  /**
   * The bar line: {@code name [#####-----] 45.0 / 100.0 MiB  12.3 MiB/s  ETA 5 s}, without the
   * rate and the time left until the download can be {@link #timed()}.
   */
  String render(boolean unicode) {
    StringBuilder line = new StringBuilder("  ").append(name).append(' ');
    if (total > 0) {
      int filled = (int) Math.min(BAR_WIDTH, received * BAR_WIDTH / total);
      line.append('[')
          .append(String.valueOf(unicode ? '█' : '#').repeat(filled))
          .append(String.valueOf(unicode ? '░' : '-').repeat(BAR_WIDTH - filled))
          .append("] ")
          .append(mib(received))
          .append(" / ")
          .append(mib(total))
          .append(" MiB");
    } else {
      line.append(mib(received)).append(" MiB");
    }
    if (timed()) {
      line.append("  ").append(String.format(Locale.ROOT, "%.1f MiB/s", rate() / MIB));
      if (!finished()) {
        eta().ifPresent(left -> line.append("  ETA ").append(eta(left)));
      }
    }
    return line.toString();
  }

  /**
   * What a finished download's line says before its outcome: {@code name 100.0 MiB at 25.0
   * MiB/s}; without the rate when the download took too short a time to measure one.
   */
  String summary() {
    String size = name + " " + mib(received) + " MiB";
    return timed() ? size + " at " + String.format(Locale.ROOT, "%.1f MiB/s", rate() / MIB) : size;
  }

  /**
   * Whether enough time passed since the first event for a rate: the bytes of a first read, over
   * a millisecond, would claim hundreds of MiB a second.
   */
  boolean timed() {
    return Duration.between(first, last).compareTo(MEASURABLE) >= 0;
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / MIB);
  }

  private static String eta(Duration d) {
    long s = (d.toMillis() + 999) / 1000;
    return s < 60 ? s + " s" : s / 60 + " min " + s % 60 + " s";
  }
}
