package dev.noneops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class JournalLoggerTest {
  private final StringWriter stderr = new StringWriter();
  private final List<Map<String, String>> entries = new ArrayList<>();

  private JournalLogger logger(JournalSink sink) {
    return new JournalLogger(
        "noneops-agent", new PrintWriter(stderr, true), Level.INFO, Optional.of(sink));
  }

  private JournalSink recording() {
    return fields -> {
      Map<String, String> entry = new LinkedHashMap<>();
      fields.forEach(f -> entry.put(f.getKey(), f.getValue()));
      entries.add(entry);
    };
  }

  @Test
  void aRollbackIsAnEntryWithItsMessageIdAndFields() {
    logger(recording())
        .atError()
        .addKeyValue("operation", "upgrade")
        .addKeyValue("outcome", "rolled-back")
        .addKeyValue("fromVersion", "1.31.4-a")
        .addKeyValue("toVersion", "1.31.5-b")
        .addKeyValue("taskPath", "upgrade › upgrade-start-target")
        .addKeyValue("errorKind", "ReadinessTimeoutException")
        .log("upgrade to {} rolled back", "1.31.5-b");

    assertThat(entries)
        .singleElement()
        .satisfies(e -> assertThat(e)
            .containsEntry("PRIORITY", "3")
            .containsEntry("SYSLOG_IDENTIFIER", "noneops")
            .containsEntry("MESSAGE_ID", "ef6e395a3703440aae279d3d31bf6a64")
            .containsEntry("NONEOPS_OPERATION", "upgrade")
            .containsEntry("NONEOPS_OUTCOME", "rolled-back")
            .containsEntry("NONEOPS_FROM_VERSION", "1.31.4-a")
            .containsEntry("NONEOPS_TO_VERSION", "1.31.5-b")
            .containsEntry("NONEOPS_TASK_PATH", "upgrade › upgrade-start-target")
            .containsEntry("NONEOPS_ERROR_KIND", "ReadinessTimeoutException")
            .hasEntrySatisfying(
                "MESSAGE", m -> assertThat(m).endsWith("upgrade to 1.31.5-b rolled back")));
    assertThat(stderr.toString()).isEmpty();
  }

  @Test
  void aPlainLineIsAnEntryWithoutAMessageId() {
    logger(recording()).warn("cannot read {}", "/etc/x");
    assertThat(entries)
        .singleElement()
        .satisfies(e -> assertThat(e)
            .containsEntry("MESSAGE", "cannot read /etc/x")
            .containsEntry("PRIORITY", "4")
            .doesNotContainKey("MESSAGE_ID"));
  }

  @Test
  void withoutTheJournalEachRecordIsALineOnStderrWithItsPriority() {
    JournalSink gone = fields -> {
      throw new IOException("Connection refused");
    };
    JournalLogger log = logger(gone);
    log.atError().addKeyValue("outcome", "rolled-back").log("rolled back");
    log.info("next");
    assertThat(stderr.toString().lines())
        .containsExactly(
            "<4>the journal's socket cannot be reached (Connection refused); logging to stderr",
            "<3>outcome=rolled-back rolled back",
            "<6>next");
  }

  @Test
  void aKeyBecomesAFieldNameTheJournalAccepts() {
    assertThat(JournalLogger.fieldName("taskPath")).isEqualTo("NONEOPS_TASK_PATH");
    assertThat(JournalLogger.fieldName("task")).isEqualTo("NONEOPS_TASK");
    assertThat(JournalLogger.fieldName("duration")).isEqualTo("NONEOPS_DURATION");
  }

  @Test
  void everyMessageIdIsA128BitHexNumberOfItsOwn() {
    assertThat(JournalMessageIds.IDS.values()).allMatch(id -> id.matches("[0-9a-f]{32}"));
    assertThat(JournalMessageIds.IDS.values()).doesNotHaveDuplicates();
  }

  @Test
  void theCatalogExplainsEveryRollbackFailureAndRefusalByItsId() throws IOException {
    String catalog;
    try (InputStream in = JournalLogger.class.getResourceAsStream("/systemd/noneops.catalog")) {
      catalog = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> ids = catalog
        .lines()
        .filter(l -> l.startsWith("-- "))
        .map(l -> l.substring(3).trim())
        .toList();
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(JournalMessageIds.IDS).containsValues(ids.toArray(String[]::new));
    JournalMessageIds.IDS.forEach((event, id) -> {
      if (!event.endsWith("/applied")
          && !event.endsWith("/upgraded")
          && !event.endsWith("/recovered")) {
        assertThat(ids).as("the catalog's entry for %s", event).contains(id);
      }
    });
  }
}
