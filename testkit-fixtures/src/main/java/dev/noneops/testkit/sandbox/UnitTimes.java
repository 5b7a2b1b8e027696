package dev.noneops.testkit.sandbox;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * When a unit of a sandbox left {@code inactive} and when it became {@code active} in the current
 * boot, as its systemd recorded them ({@code systemctl show}): monotonic timestamps in microseconds
 * (the kernel's clock, shared by every sandbox on this host, so comparable across reboots) and the
 * same moments in wall-clock time. A unit that restarted shows its last start. Zero means "did not
 * happen in this boot".
 *
 * @param startedMonotonicMicros {@code InactiveExitTimestampMonotonic}: systemd began to start it
 * @param activeMonotonicMicros {@code ActiveEnterTimestampMonotonic}: it became active; for a
 *     {@code Type=oneshot} unit that is when its commands had finished, for {@code Type=simple} the
 *     moment its process was forked
 * @param mainExitMonotonicMicros {@code ExecMainExitTimestampMonotonic}: its main process exited
 */
public record UnitTimes(
    String unit,
    String activeState,
    String subState,
    String result,
    long startedMonotonicMicros,
    long activeMonotonicMicros,
    long mainExitMonotonicMicros,
    Optional<Instant> startedAt,
    Optional<Instant> activeAt) {
  static final List<String> PROPERTIES = List.of(
      "Id",
      "ActiveState",
      "SubState",
      "Result",
      "InactiveExitTimestampMonotonic",
      "ActiveEnterTimestampMonotonic",
      "ExecMainExitTimestampMonotonic",
      "InactiveExitTimestamp",
      "ActiveEnterTimestamp");

  /** {@code systemctl show --timestamp=us+utc}: {@code Tue 2026-12-01 08:59:55.597127 UTC}. */
  private static final DateTimeFormatter REALTIME =
      DateTimeFormatter.ofPattern("EEE yyyy-MM-dd HH:mm:ss.SSSSSS 'UTC'", Locale.ROOT);

  public UnitTimes {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(activeAt, "activeAt");
  }

  /** Whether systemd began to start it in this boot. */
  public boolean started() {
    return startedMonotonicMicros > 0;
  }

  /** Whether it became active in this boot (for a oneshot: its commands succeeded). */
  public boolean becameActive() {
    return activeMonotonicMicros > 0;
  }

  /** Whether this unit had become active before {@code later} began to start. */
  public boolean finishedBefore(UnitTimes later) {
    return becameActive()
        && later.started()
        && activeMonotonicMicros <= later.startedMonotonicMicros;
  }

  /**
   * Parses {@code systemctl show --timestamp=us+utc -p <PROPERTIES> <units...>}: one block of
   * {@code Key=value} lines per unit, separated by blank lines, in the order the units were named.
   * The result is in start order; units that did not start come last, in the order named.
   */
  static List<UnitTimes> parseShow(List<String> units, String output) {
    List<Map<String, String>> blocks = new ArrayList<>();
    Map<String, String> block = new HashMap<>();
    for (String line : output.split("\n", -1)) {
      if (line.isBlank()) {
        if (!block.isEmpty()) {
          blocks.add(block);
          block = new HashMap<>();
        }
        continue;
      }
      int equals = line.indexOf('=');
      if (equals > 0) {
        block.put(line.substring(0, equals), line.substring(equals + 1));
      }
    }
    if (!block.isEmpty()) {
      blocks.add(block);
    }
    if (blocks.size() != units.size()) {
      throw new IllegalStateException("systemctl show described " + blocks.size() + " units, not "
          + units.size() + " (" + units + "):\n" + output);
    }
    List<UnitTimes> times = new ArrayList<>();
    for (int i = 0; i < units.size(); i++) {
      Map<String, String> properties = blocks.get(i);
      times.add(new UnitTimes(
          units.get(i),
          properties.getOrDefault("ActiveState", ""),
          properties.getOrDefault("SubState", ""),
          properties.getOrDefault("Result", ""),
          micros(properties, "InactiveExitTimestampMonotonic"),
          micros(properties, "ActiveEnterTimestampMonotonic"),
          micros(properties, "ExecMainExitTimestampMonotonic"),
          realtime(properties.getOrDefault("InactiveExitTimestamp", "")),
          realtime(properties.getOrDefault("ActiveEnterTimestamp", ""))));
    }
    List<UnitTimes> inStartOrder = new ArrayList<>(times.stream()
        .filter(UnitTimes::started)
        .sorted(Comparator.comparingLong(UnitTimes::startedMonotonicMicros))
        .toList());
    times.stream().filter(t -> !t.started()).forEach(inStartOrder::add);
    return List.copyOf(inStartOrder);
  }

  private static long micros(Map<String, String> properties, String key) {
    String value = properties.getOrDefault(key, "0").strip();
    try {
      return value.isEmpty() ? 0 : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(key + " is not a number: '" + value + "'", e);
    }
  }

  private static Optional<Instant> realtime(String value) {
    if (value.isBlank() || value.equals("n/a")) {
      return Optional.empty();
    }
    try {
      return Optional.of(LocalDateTime.parse(value.strip(), REALTIME).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          "unexpected timestamp from systemctl show: '" + value + "'", e);
    }
  }
}
