package dev.noneops.acceptance.system.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.sandbox.SandboxCli;
import dev.noneops.testkit.fixtures.sandbox.SandboxDisk;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.sandbox.UnitTimes;
import dev.noneops.testkit.fixtures.standins.KubeletStandIn;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import dev.noneops.testkit.fixtures.system.RecoveryGateBoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Power cuts in the middle of an upgrade, on a real systemd 252 in a sandbox whose disk outlives
 * it: a node bootstrapped with its agent through the CLI jar is upgraded with {@code noneops
 * upgrade --json}; when the progress stream reports the point's step, the sandbox's power is cut
 * (SIGKILL to its PID 1); then a new sandbox boots on the same disk and, with no operator command,
 * the recovery gate runs before any of the stack's units, the node ends on the version the point
 * calls for, consistent (the upgrade's invariants of docs/concepts/safety.md: {@code current} names
 * a complete, verified version matching the applied configuration, no journal and no saved
 * configuration left, a second recovery changes nothing), the stack and the daemon run, and {@code
 * noneops status} tells what the gate did. Each point starts from where the previous one's reboot
 * ended, on the same disk.
 *
 * <p>{@code mvn verify} runs the points marked for CI; {@code -Dnoneops.powercuts=all} (see
 * {@code bin/power-cuts}) runs all of them. The suite prints a table of what each cut found.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PowerCutSuiteSystemTest {
  private static final String DNS_INTERFACE = "nopc0";
  private static final String DNS_ADDRESS = "169.254.20.62";
  private static final String TARGET_FILE = "/etc/unbounded/agent/target.json";
  private static final String JOURNAL = "/opt/unbounded/node/upgrade-journal.json";
  private static final String CONFSNAP = "/opt/unbounded/node/confsnap";
  private static final String CURRENT = "/opt/unbounded/node/current";
  private static final String LAYOUT = "/opt/unbounded/node";
  private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration KUBELET_READY = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SERVING =
      Pattern.compile(Pattern.quote(KubeletStandIn.SERVING_SINCE) + "(\\d+)");
  private static final List<String> STACK = HostPaths.STACK_UNITS;

  private AgentNodeFixture node;
  private SandboxDisk disk;
  private SystemdSandbox sandbox;
  private int boots;
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, String> versions = new LinkedHashMap<>();
  private String active;
  private final List<String> table = new ArrayList<>();

  @BeforeAll
  void bootstrapOnADisk() throws Exception {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
    AgentNodeFixture.awaitPortsFree(Duration.ofMinutes(3));
    node = AgentNodeFixture.serve(DNS_INTERFACE, DNS_ADDRESS);
    disk = SandboxDisk.create("powercuts");
    sandbox = SystemdSandbox.boot("powercuts-0", disk, BOOT_TIMEOUT);
    DummyLinkStandIn.installWhereNeeded(sandbox);
    SandboxCli cli = SandboxCli.copiedInto(sandbox, AgentNodeFixture.builtJar());
    labels.put(node.base(), "base");
    labels.put(node.upgraded(), "upgraded");
    labels.put(node.neverHealthy(), "never-ready");
    for (String json : labels.keySet()) {
      AgentNodeFixture.write(sandbox, TARGET_FILE, json);
      versions.put(
          json, cli.run("version-for", "--config", TARGET_FILE).orThrow().out().strip());
    }
    AgentNodeFixture.write(sandbox, AgentNodeFixture.CONFIG, node.base());
    SandboxCli.Run bootstrap =
        cli.run("bootstrap", "--no-kernel-modules", "--kubelet-timeout", "60s");
    assertThat(bootstrap.exitCode())
        .as("%s%n%s", bootstrap, AgentNodeFixture.stackJournals(sandbox))
        .isZero();
    active = node.base();
  }

  List<PowerCutPoint> points() {
    return PowerCutPoint.selected();
  }

  @ParameterizedTest(name = "power cut {0}")
  @Order(1)
  @MethodSource("points")
  void theRebootAloneMakesTheNodeConsistentAndStartsItsStack(PowerCutPoint point) throws Exception {
    String from = active;
    String target = point.neverHealthy()
        ? node.neverHealthy()
        : from.equals(node.base()) ? node.upgraded() : node.base();
    String expected = point.bootsTarget() ? target : from;
    AgentNodeFixture.write(sandbox, TARGET_FILE, target);

    SystemdSandbox cut = sandbox;
    boolean[] fired = {false};
    List<String> progress = SandboxCli.alreadyIn(cut)
        .runWatchingStderr(
            SandboxCli.progressEvent(point.task(), point.kind()),
            () -> {
              fired[0] = true;
              cut.powerCut();
            },
            "upgrade",
            "--json",
            "--config",
            TARGET_FILE,
            "--no-prune",
            "--force",
            "--kubelet-timeout",
            point.neverHealthy() ? "4s" : "60s");
    assertThat(fired[0])
        .as(
            "the upgrade reached %s %s; its progress:%n%s",
            point.task(), point.kind(), String.join("\n", progress))
        .isTrue();
    String lastEvent = lastEvent(progress);
    Path records = Files.createDirectories(Path.of("target", "power-cuts"));
    Files.write(records.resolve(point.name() + ".ndjson"), progress);
    boolean journalAtCut = Files.isRegularFile(disk.written(JOURNAL));
    boolean inFlightAtCut = somethingInFlight(disk);
    String currentAtCut = Files.readSymbolicLink(disk.written(CURRENT)).toString();

    Instant bootStart = Instant.now();
    sandbox = SystemdSandbox.boot("powercuts-" + ++boots, disk, BOOT_TIMEOUT);
    Optional<Duration> kubeletReady = kubeletReadySince(sandbox, bootStart);
    SandboxCli cli = SandboxCli.alreadyIn(sandbox);
    Files.writeString(records.resolve(point.name() + ".journal"), sandbox.bootJournal());
    JsonNode status = JSON.readTree(cli.run("status", "--json").out());
    boolean skipped = !inFlightAtCut;
    String gateOutcome = skipped
        ? "skipped"
        : status.path("agent").path("bootRecovery").path("outcome").asText("?");
    String gateLine = RecoveryGateBoot.gateLine(sandbox.bootJournal());
    table.add(String.format(
        Locale.ROOT,
        "| %-26s | %-48s | %-7s | %-11s | %-11s | %-17s | %6s |",
        point.name(),
        lastEvent,
        journalAtCut ? "yes" : "no",
        versionLabel(currentAtCut),
        labelOf(status.path("activeVersion").asText()),
        gateOutcome,
        kubeletReady
            .map(d -> String.format(Locale.ROOT, "%.2f s", d.toMillis() / 1000.0))
            .orElse("never")));

    if (skipped) {
      // the cut came after the operation had finished: nothing in flight, no JVM before the stack
      assertGateSkipped(sandbox, status);
    } else {
      assertGateRanBeforeTheStack(sandbox, gateLine);
    }
    assertThat(kubeletReady).as("kubelet became ready after the reboot").isPresent();

    assertThat(status.path("activeVersion").asText())
        .as("booted on the %s version (%s)", point.bootsTarget() ? "target" : "previous", gateLine)
        .isEqualTo(versions.get(expected));
    assertThat(status.path("running").asBoolean()).as(status.toString()).isTrue();
    assertThat(status.path("upgradeInFlight").isNull()).as(status.toString()).isTrue();
    if (!skipped) {
      assertThat(gateOutcome).as(gateLine).isIn(point.outcomes());
      assertThat(gateLine).isNotEmpty();
    } else {
      assertThat(point.outcomes())
          .as("a cut after which nothing is in flight fits the point")
          .contains("NOTHING_TO_DO");
    }
    assertThat(Files.exists(sandbox.path(JOURNAL), LinkOption.NOFOLLOW_LINKS))
        .as("no journal left")
        .isFalse();
    assertThat(Files.exists(sandbox.path(CONFSNAP), LinkOption.NOFOLLOW_LINKS))
        .as("no saved configuration left")
        .isFalse();
    String applied =
        Files.readString(sandbox.path(HostPaths.realHost().appliedConfig().toString()));
    AgentNodeFixture.write(sandbox, TARGET_FILE, applied);
    assertThat(cli.run("version-for", "--config", TARGET_FILE).orThrow().out().strip())
        .as("the applied configuration is the active version's")
        .isEqualTo(versions.get(expected));
    SandboxCli.Run verify = cli.run("verify");
    assertThat(verify.exitCode()).as(verify.toString()).isZero();
    JsonNode again = JSON.readTree(cli.run("recover", "--json").orThrow().out());
    assertThat(again.path("outcome").asText())
        .as("a second recovery changes nothing")
        .isEqualTo("NOTHING_TO_DO");
    assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "ActiveState") + "/"
            + sandbox.unitProperty(HostPaths.AGENT_UNIT, "SubState"))
        .as("the daemon: %s", sandbox.journal(HostPaths.AGENT_UNIT))
        .isEqualTo("active/running");
    assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "StatusText"))
        .isEqualTo("watching " + AgentNodeFixture.CONFIG);
    active = expected;
  }

  /** Each kind of interrupted work other than an upgrade's journal, as a crash leaves it on disk. */
  enum InFlight {
    SAVED_CONFIGURATION_WITHOUT_JOURNAL(CONFSNAP + "/.noneops-tmp-saved.0a1b", "a save cut short"),
    TEARDOWN(LAYOUT + "/.teardown", "a reset cut short"),
    STAGING(LAYOUT + "/.staging/1.31.9-0123456789ab/kubelet", "a download cut short"),
    VERSION_BEING_REMOVED(
        LAYOUT + "/.removing-1.31.0-0123456789ab/bin/kubelet", "a prune cut short"),
    INTERRUPTED_WRITE_IN_THE_LAYOUT(LAYOUT + "/.noneops-tmp-current.0a1b2c3d", "a write cut short");

    final String file;
    final String content;

    InFlight(String file, String content) {
      this.file = file;
      this.content = content;
    }
  }

  /**
   * After the power-cut points: a clean boot (nothing in flight) skips the gate by its conditions,
   * no JVM before the stack, and the stack comes up; a boot with each other kind of interrupted
   * work on disk runs the gate to its end before the stack.
   */
  @Test
  @Order(2)
  void aCleanBootSkipsTheGateAndABootWithInterruptedWorkRunsItBeforeTheStack() throws Exception {
    sandbox = rebootAfter(() -> {});
    assertGateSkipped(
        sandbox,
        JSON.readTree(SandboxCli.alreadyIn(sandbox).run("status", "--json").out()));
    String bootLine = SandboxCli.alreadyIn(sandbox)
        .run("status")
        .out()
        .lines()
        .filter(l -> l.startsWith("boot:"))
        .findFirst()
        .orElse("");
    assertThat(bootLine)
        .startsWith("boot:      the recovery gate did not run on this boot: its conditions found"
            + " nothing in flight");
    table.add(String.format(
        Locale.ROOT,
        "| %-26s | %-48s | %-7s | %-11s | %-11s | %-17s | %6s |",
        "clean boot",
        "(nothing in flight)",
        "no",
        labelOf(versions.get(active)),
        labelOf(versions.get(active)),
        "skipped",
        "-"));

    for (InFlight work : InFlight.values()) {
      sandbox = rebootAfter(() -> {
        Path left = disk.written(work.file);
        Files.createDirectories(left.getParent());
        Files.writeString(left, work.content + "\n");
      });
      String gateLine = RecoveryGateBoot.gateLine(sandbox.bootJournal());
      assertGateRanBeforeTheStack(sandbox, gateLine);
      assertThat(sandbox.unitProperty(HostPaths.RECOVERY_GATE_UNIT, "ConditionResult"))
          .as(work.name())
          .isEqualTo("yes");
      JsonNode status =
          JSON.readTree(SandboxCli.alreadyIn(sandbox).run("status", "--json").out());
      assertThat(status.path("agent").path("bootRecovery").path("outcome").asText())
          .as("%s: %s", work, gateLine)
          .isEqualTo("NOTHING_TO_DO");
      assertThat(status.path("running").asBoolean()).as(status.toString()).isTrue();
      table.add(String.format(
          Locale.ROOT,
          "| %-26s | %-48s | %-7s | %-11s | %-11s | %-17s | %6s |",
          work.name().toLowerCase(Locale.ROOT).replace('_', '-'),
          "(" + work.content + " left on disk)",
          "no",
          labelOf(versions.get(active)),
          labelOf(status.path("activeVersion").asText()),
          "NOTHING_TO_DO",
          "-"));
      if (work == InFlight.TEARDOWN) {
        Files.delete(sandbox.path(work.file));
      } else {
        assertThat(Files.exists(sandbox.path(work.file), LinkOption.NOFOLLOW_LINKS))
            .as("the gate removed what %s left (%s)", work, gateLine)
            .isFalse();
      }
    }
  }

  /** Cuts the running sandbox's power, runs {@code onTheDisk}, and boots again on the disk. */
  private SystemdSandbox rebootAfter(DiskChange onTheDisk) throws Exception {
    sandbox.powerCut();
    onTheDisk.apply();
    SystemdSandbox booted = SystemdSandbox.boot("powercuts-" + ++boots, disk, BOOT_TIMEOUT);
    assertThat(kubeletReadySince(booted, Instant.now().minusSeconds(60)))
        .as("kubelet became ready after the reboot: %s", AgentNodeFixture.stackJournals(booted))
        .isPresent();
    return booted;
  }

  @FunctionalInterface
  private interface DiskChange {
    void apply() throws IOException;
  }

  /** The gate ran this boot and had finished before each of the stack's units started. */
  private static void assertGateRanBeforeTheStack(SystemdSandbox sandbox, String gateLine) {
    RecoveryGateBoot boot = RecoveryGateBoot.of(sandbox);
    assertThat(boot.gate().activeState() + "/" + boot.gate().subState())
        .as("the gate: %s%n%s", gateLine, AgentNodeFixture.stackJournals(sandbox))
        .isEqualTo("active/exited");
    for (UnitTimes stack : boot.stack()) {
      assertThat(boot.gate().finishedBefore(stack))
          .as("the gate (%s) finished before %s started (%s)", boot.gate(), stack.unit(), stack)
          .isTrue();
      assertThat(stack.activeState()).as(stack.unit()).isEqualTo("active");
    }
    assertThat(boot.stack()).extracting(UnitTimes::unit).containsExactlyInAnyOrderElementsOf(STACK);
    assertThat(boot.gateJobs()).containsExactly("start done");
    assertThat(boot.gateFinishedBeforeTheStack())
        .as("the boot's journal shows the gate finished first: %s", boot.journal())
        .isTrue();
  }

  /**
   * systemd skipped the gate by its conditions (no JVM: no process of it ran, the journal says it
   * was skipped), the stack's units, which require it, are active, and {@code status} says the gate
   * did not run in this boot.
   */
  private static void assertGateSkipped(SystemdSandbox sandbox, JsonNode status) {
    String journals = AgentNodeFixture.stackJournals(sandbox);
    assertThat(sandbox.unitProperty(HostPaths.RECOVERY_GATE_UNIT, "ConditionResult"))
        .as("the gate's conditions: %s", journals)
        .isEqualTo("no");
    assertThat(sandbox.unitProperty(HostPaths.RECOVERY_GATE_UNIT, "ActiveState"))
        .isEqualTo("inactive");
    assertThat(
            sandbox.unitProperty(HostPaths.RECOVERY_GATE_UNIT, "ExecMainStartTimestampMonotonic"))
        .as("no process of the gate ran")
        .isEqualTo("0");
    assertThat(sandbox.bootJournal())
        .as("systemd says it skipped the gate")
        .containsPattern(Pattern.quote(HostPaths.RECOVERY_GATE_UNIT) + ".*skipped because"
            + " (no trigger condition checks were met|of an unmet condition check)");
    assertThat(RecoveryGateBoot.gateLine(sandbox.bootJournal()))
        .as("no gate line")
        .isEmpty();
    for (String unit : STACK) {
      assertThat(sandbox.unitProperty(unit, "ActiveState"))
          .as("%s%n%s", unit, journals)
          .isEqualTo("active");
    }
    assertThat(status.path("gateUnit").path("active").asText()).isEqualTo("inactive");
  }

  @AfterAll
  void printTheTableAndRemoveTheNode() throws Exception {
    if (!table.isEmpty()) {
      StringBuilder out = new StringBuilder("\npower cuts on a sandboxed systemd 252 (versions: ");
      labels.forEach((json, label) ->
          out.append(label).append(" = ").append(versions.get(json)).append("; "));
      out.append(")\n")
          .append(String.format(
              Locale.ROOT,
              "| %-26s | %-48s | %-7s | %-11s | %-11s | %-17s | %6s |%n",
              "point",
              "last step reported before the cut",
              "journal",
              "current",
              "booted",
              "recovery (gate)",
              "kubelet ready"))
          .append("|")
          .append("-".repeat(28))
          .append("|")
          .append("-".repeat(50))
          .append("|")
          .append("-".repeat(9))
          .append("|")
          .append("-".repeat(13))
          .append("|")
          .append("-".repeat(13))
          .append("|")
          .append("-".repeat(19))
          .append("|")
          .append("-".repeat(8))
          .append("|\n");
      table.forEach(row -> out.append(row).append('\n'));
      System.out.println(out);
      Files.writeString(
          Files.createDirectories(Path.of("target", "power-cuts")).resolve("table.md"),
          out.toString().strip() + "\n");
    }
    try {
      if (sandbox != null && Files.isDirectory(sandbox.path("/proc/1"))) {
        SandboxCli.alreadyIn(sandbox).run("reset", "--yes");
      }
    } finally {
      if (sandbox != null) {
        sandbox.close();
      }
      if (disk != null) {
        disk.close();
      }
      if (node != null) {
        node.removeLeftLink();
        node.close();
      }
    }
  }

  /**
   * Whether the disk holds work the gate's conditions look for: an upgrade's journal or saved
   * configuration, a teardown's note, something in the staging directory, a version's removal
   * tombstone, a temp entry in the layout.
   */
  private static boolean somethingInFlight(SandboxDisk disk) throws IOException {
    if (Files.exists(disk.written(JOURNAL), LinkOption.NOFOLLOW_LINKS)
        || Files.exists(disk.written(CONFSNAP), LinkOption.NOFOLLOW_LINKS)
        || Files.exists(disk.written(LAYOUT + "/.teardown"), LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    Path staging = disk.written(LAYOUT + "/.staging");
    if (Files.isDirectory(staging)) {
      try (var entries = Files.list(staging)) {
        if (entries.findAny().isPresent()) {
          return true;
        }
      }
    }
    Path layout = disk.written(LAYOUT);
    if (!Files.isDirectory(layout)) {
      return false;
    }
    try (var entries = Files.list(layout)) {
      return entries
          .map(e -> e.getFileName().toString())
          .anyMatch(n -> n.startsWith(".removing-") || n.startsWith(".noneops-tmp-"));
    }
  }

  /** The last step the upgrade reported, which the cut came after. */
  private static String lastEvent(List<String> progress) {
    for (int i = progress.size() - 1; i >= 0; i--) {
      String line = progress.get(i);
      if (line.startsWith("{")) {
        try {
          JsonNode event = JSON.readTree(line);
          return event.path("task").asText() + " "
              + event.path("kind").asText().toLowerCase(Locale.ROOT);
        } catch (IOException notJson) {
          // a line cut short by the power cut
        }
      }
    }
    return "(none)";
  }

  /** The instant kubelet's stand-in began answering its healthz in this boot, since {@code from}. */
  private static Optional<Duration> kubeletReadySince(SystemdSandbox sandbox, Instant from)
      throws InterruptedException {
    long deadline = System.nanoTime() + KUBELET_READY.toNanos();
    while (System.nanoTime() < deadline) {
      Matcher serving = SERVING.matcher(sandbox.journal(HostPaths.KUBELET_UNIT));
      Optional<Long> last = Optional.empty();
      while (serving.find()) {
        last = Optional.of(Long.parseLong(serving.group(1)));
      }
      if (last.isPresent() && AgentNodeFixture.kubeletHealthy()) {
        Instant at = Instant.ofEpochSecond(0, last.get());
        return Optional.of(Duration.between(from, at));
      }
      Thread.sleep(100);
    }
    return Optional.empty();
  }

  private String labelOf(String version) {
    return versions.entrySet().stream()
        .filter(e -> e.getValue().equals(version))
        .map(e -> labels.get(e.getKey()))
        .findFirst()
        .orElse(version);
  }

  private String versionLabel(String link) {
    Path name = Path.of(link).getFileName();
    return labelOf(name == null ? link : name.toString());
  }
}
