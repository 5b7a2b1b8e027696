package dev.noneops.demo;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --download-rate}: bytes per second as a number with an optional binary suffix ({@code
 * 512K}, {@code 2M}, {@code 1G}), or {@code unlimited}.
 */
final class DownloadRate implements ITypeConverter<Long> {
  static final long UNLIMITED = Long.MAX_VALUE;
  private static final Pattern RATE = Pattern.compile("([1-9][0-9]{0,12})([KMG]?)");

  @Override
  public Long convert(String value) {
    return parse(value);
  }

  static long parse(String value) {
    String v = value.strip().toUpperCase(Locale.ROOT);
    if (v.equals("UNLIMITED")) {
      return UNLIMITED;
    }
    Matcher m = RATE.matcher(v);
    if (!m.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a rate: bytes per second, e.g. 2M, 512K, 1000000 or unlimited");
    }
    long unit = switch (m.group(2)) {
      case "K" -> 1024L;
      case "M" -> 1024L * 1024;
      case "G" -> 1024L * 1024 * 1024;
      default -> 1L;
    };
    return Long.parseLong(m.group(1)) * unit;
  }

  /** {@code bytesPerSecond} as the operator reads it: {@code 2.0 MiB/s} or {@code unlimited}. */
  static String describe(long bytesPerSecond) {
    return bytesPerSecond == UNLIMITED
        ? "unlimited"
        : String.format(Locale.ROOT, "%.1f MiB/s", bytesPerSecond / (1024.0 * 1024));
  }
}
