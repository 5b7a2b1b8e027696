package dev.noneops.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The metrics the agent exposes are the ones {@code docs/reference/metrics.md} lists, with the
 * same type, labels and help text: a metric added, renamed or relabelled fails here until the
 * reference says so too.
 */
class MetricsReferenceTest {
  private static final Path REFERENCE = Path.of("..", "docs", "reference", "metrics.md");
  private static final Pattern ROW =
      Pattern.compile("^\\| `(noneops_[a-z_]+)` \\| (\\w+) \\| ([^|]*) \\| (.*) \\|$");
  private static final Pattern SAMPLE =
      Pattern.compile("^(noneops_[a-z_]+?)(_bucket|_count|_sum)?(\\{(.*)\\})? .*$");

  @Test
  void everyMetricIsListedInTheReferenceAsItIsRegistered() throws IOException {
    PrometheusAgentMetrics metrics = new PrometheusAgentMetrics();
    metrics.publish(PrometheusAgentMetricsTest.FIGURES);
    metrics.operationEnded("upgrade", "upgraded", Duration.ofSeconds(3));
    metrics.switchOver(Duration.ofSeconds(2));
    assertThat(documented()).isEqualTo(registered(metrics.text()));
  }

  /** name → "type | labels | help", from the exposition. */
  static Map<String, String> registered(String text) {
    Map<String, String> type = new TreeMap<>();
    Map<String, String> help = new TreeMap<>();
    Map<String, TreeSet<String>> labels = new TreeMap<>();
    for (String line : text.lines().toList()) {
      if (line.startsWith("# HELP ")) {
        String[] p = line.substring(7).split(" ", 2);
        help.put(p[0], p[1]);
      } else if (line.startsWith("# TYPE ")) {
        String[] p = line.substring(7).split(" ", 2);
        type.put(p[0], p[1]);
        labels.put(p[0], new TreeSet<>());
      } else {
        Matcher m = SAMPLE.matcher(line);
        if (m.matches()) {
          String name = type.containsKey(m.group(1)) ? m.group(1) : m.group(1) + m.group(2);
          if (m.group(4) != null) {
            for (String pair : m.group(4).split(",")) {
              String label = pair.substring(0, pair.indexOf('='));
              if (!label.equals("le")) {
                labels.get(name).add(label);
              }
            }
          }
        }
      }
    }
    Map<String, String> rows = new TreeMap<>();
    type.forEach((name, t) ->
        rows.put(name, t + " | " + String.join(", ", labels.get(name)) + " | " + help.get(name)));
    return rows;
  }

  /** name → "type | labels | help", from the reference's table. */
  static Map<String, String> documented() throws IOException {
    Map<String, String> rows = new TreeMap<>();
    List<String> unparsed = new ArrayList<>();
    for (String line : Files.readAllLines(REFERENCE, StandardCharsets.UTF_8)) {
      if (!line.startsWith("| `noneops_")) {
        continue;
      }
      Matcher m = ROW.matcher(line);
      if (!m.matches()) {
        unparsed.add(line);
        continue;
      }
      String labels = m.group(3).trim().replace("`", "");
      rows.put(m.group(1), m.group(2) + " | " + labels + " | " + m.group(4).trim());
    }
    assertThat(unparsed)
        .as("rows of %s that are not `name` | type | labels | help", REFERENCE)
        .isEmpty();
    return rows;
  }
}
