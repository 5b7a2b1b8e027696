package dev.noneops.testkit.sandbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job of a sandbox's systemd that completed in the current boot, as its journal records it
 * ({@code UNIT}, {@code JOB_TYPE} and {@code JOB_RESULT} of PID 1's "Started", "Finished",
 * "Failed to start", "Dependency failed for" messages): e.g. {@code start} of a unit ending in
 * {@code done}, {@code failed} or, for a unit whose {@code Requires=} dependency failed, {@code
 * dependency}.
 *
 * @param monotonicMicros when the journal received the message (the kernel's monotonic clock)
 */
public record JobResult(
    String unit, String type, String result, long monotonicMicros, Instant realtime) {
  /** One {@code "KEY":"value"} pair of a {@code journalctl -o json} line (string values only). */
  private static final Pattern FIELD =
      Pattern.compile("\"([A-Za-z0-9_]+)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  public JobResult {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(realtime, "realtime");
  }

  /**
   * Parses {@code journalctl -o json --output-fields=UNIT,JOB_TYPE,JOB_RESULT,MESSAGE_ID}: one
   * JSON object a line. Only the catalogued message of each job counts (it has a {@code
   * MESSAGE_ID}); the debug line a failed job adds ("Job ... failed with result ...") has none.
   */
  static List<JobResult> parseJournalJson(String output) {
    List<JobResult> results = new ArrayList<>();
    for (String line : output.split("\n")) {
      Map<String, String> fields = new HashMap<>();
      Matcher field = FIELD.matcher(line);
      while (field.find()) {
        fields.put(field.group(1), field.group(2));
      }
      if (fields.containsKey("JOB_RESULT")
          && fields.containsKey("UNIT")
          && fields.containsKey("MESSAGE_ID")) {
        long realtimeMicros = Long.parseLong(fields.getOrDefault("__REALTIME_TIMESTAMP", "0"));
        results.add(new JobResult(
            fields.get("UNIT"),
            fields.getOrDefault("JOB_TYPE", ""),
            fields.get("JOB_RESULT"),
            Long.parseLong(fields.getOrDefault("__MONOTONIC_TIMESTAMP", "0")),
            Instant.EPOCH.plusNanos(realtimeMicros * 1000)));
      }
    }
    return List.copyOf(results);
  }
}
