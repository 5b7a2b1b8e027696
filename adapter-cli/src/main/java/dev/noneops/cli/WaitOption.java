package dev.noneops.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --kubelet-timeout DURATION}: how long to wait for kubelet to become ready. */
public final class WaitOption {
  @Option(
      names = "--kubelet-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How long kubelet may take to become ready, e.g. 90s, 5m (default: 120s).")
  Duration kubeletTimeout;

  public Optional<Duration> kubeletTimeout() {
    return Optional.ofNullable(kubeletTimeout);
  }

  /** {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h} or ISO-8601 ({@code PT30S}); positive. */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      Duration d;
      try {
        if (v.startsWith("pt")) {
          d = Duration.parse(v.toUpperCase(Locale.ROOT));
        } else if (v.endsWith("ms")) {
          d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        } else if (v.endsWith("s")) {
          d = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
        } else if (v.endsWith("m")) {
          d = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
        } else if (v.endsWith("h")) {
          d = Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
        } else {
          throw new TypeConversionException("'" + value + "' has no unit; write e.g. 90s or 5m");
        }
      } catch (NumberFormatException | DateTimeParseException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a duration such as 90s, 5m or PT2M");
      }
      if (d.isZero() || d.isNegative()) {
        throw new TypeConversionException("'" + value + "' must be positive");
      }
      return d;
    }
  }
}
