package dev.noneops.acceptance.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.noneops.cli.ExitCode;
import dev.noneops.cli.output.Json;
import dev.noneops.ports.files.HostLock;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fixtures.cli.ConfigJson;
import dev.noneops.testkit.fixtures.cli.SimCli;
import dev.noneops.testkit.fixtures.cli.SimCli.Run;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.PortCall;
import dev.noneops.testkit.gate.SimulatedCrash;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.process.SimProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The operator's CLI end to end on a simulated host: output, exit codes and the JSON schema. */
class CliOnSimulatedHostTest {
  private static final Path CONFIG = SimCli.CONFIG;
  private static final ConfigJson BASE = ConfigJson.of("1.31.4").withContainerd("1.7.22");

  private final SimCli cli = new SimCli(SimulatedHost.create());

  @Test
  void bootstrapInstallsAndStartsTheNodeAndStatusReportsIt() throws Exception {
    String version = cli.configure(CONFIG, BASE.json());

    Run boot = cli.run("bootstrap");

    assertThat(boot.exitCode()).as(boot.err()).isZero();
    assertThat(boot.out())
        .startsWith("bootstrapped version " + version)
        .contains("the stack is running");
    assertThat(boot.err()).contains("ok  ").doesNotContain("FAIL");
    JsonNode status = json(cli.run("status", "--json"));
    assertThat(status.get("activeVersion").asText()).isEqualTo(version);
    assertThat(status.get("running").asBoolean()).isTrue();
    assertThat(status.get("appliedConfig").asBoolean()).isTrue();
    assertThat(status.get("units").get("kubelet.service").get("active").asText())
        .isEqualTo("active");
    assertThat(cli.run("allocation-launch-check").exitCode()).isZero();
  }

  @Test
  void everyReportingCommandPrintsOneSortedDocumentWithTheSchemaVersion() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");

    for (String[] args : List.of(
        new String[] {"status", "--json"},
        new String[] {"versions", "--json"},
        new String[] {"verify", "--json"},
        new String[] {"present", "--json"},
        new String[] {"allocation-launch-check", "--json"},
        new String[] {"version-for", "--json"},
        new String[] {"plan", "--json"},
        new String[] {"version", "--json"},
        new String[] {"apply", "--json"},
        new String[] {"restart", "--json"},
        new String[] {"prune", "--json"},
        new String[] {"commit", "--json"},
        new String[] {"recover", "--json"})) {
      Run run = cli.run(args);
      JsonNode doc = json(run);
      assertThat(doc.get("schemaVersion").asInt()).as(args[0]).isEqualTo(Json.SCHEMA_VERSION);
      assertThat(doc.get("command").asText()).as(args[0]).isEqualTo(args[0]);
      assertSortedEverywhere(doc, args[0]);
    }
  }

  @Test
  void anInvalidConfigurationIsRejectedOnOneLineListingEveryViolationAndNothingChanges() {
    cli.configure(CONFIG, BASE.json());
    String bad = BASE.json()
        .replace("\"https://api.example.com:6443\"", "\"ftp://api\"")
        .replace("\"abcdef.0123456789abcdef\"", "\"\"");
    writeRaw(CONFIG, bad);
    FileTreeSnapshot before = cli.host().snapshot();

    Run run = cli.run("bootstrap");

    assertThat(run.exitCode()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.out()).isEmpty();
    assertThat(run.err().lines()).hasSize(1);
    assertThat(run.err()).contains("Kubelet.ApiServer").contains("BootstrapToken");
    assertThat(cli.host().snapshot()).isEqualTo(before);
  }

  @Test
  void aMissingConfigurationFileIsNamed() {
    Run run = cli.run("bootstrap", "--config", "/etc/nowhere.json");

    assertThat(run.exitCode()).isEqualTo(ExitCode.INVALID_CONFIG.code());
    assertThat(run.err()).contains("/etc/nowhere.json").contains("no such file");
  }

  @Test
  void aMutatingCommandRefusesToRunWithoutRootAndChangesNothing() {
    cli.configure(CONFIG, BASE.json());
    FileTreeSnapshot before = cli.host().snapshot();

    Run run = cli.asRoot(false).run("bootstrap");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_ROOT.code());
    assertThat(run.err()).contains("must run as root");
    assertThat(cli.host().snapshot()).isEqualTo(before);
  }

  @Test
  void aSecondOperationWhileTheLockIsHeldIsBusy() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());

    Optional<HostLock> held = cli.host().ports().files().tryLock(cli.layout().lock());
    assertThat(held).isPresent();
    try (HostLock lock = held.get()) {
      Run run = cli.run("upgrade");
      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.BUSY.code());
      assertThat(run.err()).contains("busy");
    }
  }

  /** The node lock, taken by another noneops process (an operator's upgrade) that runs on. */
  private HostLock heldByAnotherNoneops(SimProcess other) throws Exception {
    cli.host().actAs(other);
    try {
      return cli.host().ports().files().tryLock(cli.layout().lock()).orElseThrow();
    } finally {
      cli.host().actAsAgent();
    }
  }

  private SimProcess anotherNoneops() {
    cli.host().installExecutable(Path.of("/usr/local/bin/noneops"), "noneops");
    return cli.host()
        .spawn(ProcessSpec.of("/usr/local/bin/noneops", "noneops", "upgrade", "--json"));
  }

  @Test
  void aMutatingCommandWaitsForTheLockAndProceedsWhenItIsReleasedWithinTheBound() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    SimProcess other = anotherNoneops();
    HostLock held = heldByAnotherNoneops(other);
    cli.host().clock().schedule(Duration.ofSeconds(3), held::close);
    Duration before = cli.host().clock().elapsed();

    Run run = cli.run("prune", "--lock-timeout", "10s");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err())
        .contains("noneops prune: waiting up to 10s for the node lock "
            + cli.layout().lock() + ", held by pid " + other.pid() + " (noneops upgrade --json)");
    assertThat(cli.host().clock().elapsed().minus(before))
        .isBetween(Duration.ofSeconds(3), Duration.ofSeconds(4));
  }

  @Test
  void aMutatingCommandGivesUpAfterTheBoundWithExit5NamingTheHolder() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    SimProcess other = anotherNoneops();
    Duration before = cli.host().clock().elapsed();

    try (HostLock held = heldByAnotherNoneops(other)) {
      Run run = cli.run("prune", "--lock-timeout", "2s");

      assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.BUSY.code());
      assertThat(run.err())
          .contains("node busy: cannot prune versions because pid " + other.pid()
              + " (noneops upgrade --json) holds " + cli.layout().lock() + " (waited 2s)");
    }
    assertThat(cli.host().clock().elapsed().minus(before))
        .isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
  }

  @Test
  void upgradeSwitchesToTheNewContainerdCommitsAndPrunes() throws Exception {
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String v2 = cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());

    Run up = cli.run("upgrade", "--json");

    assertThat(up.exitCode()).as(up.err()).isZero();
    JsonNode doc = json(up);
    assertThat(doc.get("previousVersion").asText()).isEqualTo(v1);
    assertThat(doc.get("targetVersion").asText()).isEqualTo(v2);
    assertThat(doc.get("pruned").get("removed").get(0).asText()).isEqualTo(v1);
    assertThat(cli.activeVersion()).contains(v2);
    JsonNode versions = json(cli.run("versions", "--json"));
    assertThat(versions.get("versions")).hasSize(1);
    assertThat(json(cli.run("status", "--json")).get("upgradeInFlight").isNull())
        .isTrue();
  }

  @Test
  void upgradeWithNoPruneKeepsThePreviousVersion() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());

    assertThat(cli.run("upgrade", "--no-prune").exitCode()).isZero();

    assertThat(json(cli.run("versions", "--json")).get("versions")).hasSize(2);
  }

  @Test
  void anUpgradeWhoseKubeletNeverGetsReadyRollsBackAndExitsRolledBack() throws Exception {
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String broken = cli.configure(CONFIG, BASE.withKubernetes("1.31.5").json());
    cli.kubeletNeverReady(broken);

    Run up = cli.run("upgrade", "--kubelet-timeout", "20s");

    assertThat(up.exitCode()).as(up.err()).isEqualTo(ExitCode.ROLLED_BACK.code());
    assertThat(up.err().lines().filter(l -> l.startsWith("noneops upgrade:"))).hasSize(1);
    assertThat(cli.activeVersion()).contains(v1);
    JsonNode status = json(cli.run("status", "--json"));
    assertThat(status.get("running").asBoolean()).isTrue();
    assertThat(status.get("upgradeInFlight").isNull()).isTrue();

    Run again = cli.run("upgrade", "--kubelet-timeout", "20s");
    assertThat(again.exitCode())
        .as("a rolled-back upgrade is refused without --force")
        .isEqualTo(ExitCode.FAILURE.code());
    assertThat(again.err())
        .containsIgnoringCase("rolled back")
        .as("the refusal says where the rolled-back upgrade failed")
        .contains(
            "(at upgrade-start-target › start › wait-kubelet: kubelet.service did not become ready in 20 s");
  }

  @Test
  void
      aRolledBackUpgradeIsOneFailLineAtTheStepThatFailedAndOneErrorLineSayingWhereWhatAndHowTheNodeWasLeft()
          throws Exception {
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String broken = cli.configure(CONFIG, BASE.withKubernetes("1.31.5").json());
    cli.kubeletNeverReady(broken);

    Run up = cli.run("upgrade", "--kubelet-timeout", "20s");

    assertThat(up.exitCode()).as(up.err()).isEqualTo(ExitCode.ROLLED_BACK.code());
    assertThat(up.err().lines().filter(l -> l.contains("FAIL")))
        .containsExactly(
            "  FAIL wait-kubelet (20.0 s): kubelet.service did not become ready in 20 s (active; healthz at "
                + "http://127.0.0.1:10248/healthz not answering)");
    assertThat(up.err().lines().filter(l -> l.contains("did not become ready")))
        .as("the message is not repeated")
        .hasSize(2);
    assertThat(up.err().lines().filter(l -> l.startsWith("  end  ")))
        .contains(
            "  end  start (20.0 s): because wait-kubelet failed",
            "  end  upgrade-start-target (20.0 s): because wait-kubelet failed");
    assertThat(up.err().lines().reduce((first, second) -> second))
        .contains("noneops upgrade: " + v1 + " → " + broken
            + " failed at upgrade-start-target › start › wait-kubelet: kubelet.service did not become ready in 20 s (active; healthz at "
            + "http://127.0.0.1:10248/healthz not answering); rolled back: " + v1
            + " runs again with its configuration");
  }

  @Test
  void theWhereAndTheCausesOfAFailureGoToVerboseAndJson() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String broken = cli.configure(CONFIG, BASE.withKubernetes("1.31.5").json());
    cli.kubeletNeverReady(broken);

    Run verbose = cli.run("upgrade", "--force", "-v", "--kubelet-timeout", "20s");
    Run json = cli.run("upgrade", "--force", "--json", "--kubelet-timeout", "20s");

    assertThat(verbose.err())
        .contains("\n  at:        upgrade-start-target › start › wait-kubelet\n")
        .contains(
            "\n  caused by: ReadinessTimeoutException: kubelet.service did not become ready in 20 s");
    JsonNode error = json(json).get("error");
    assertThat(error.get("kind").asText()).isEqualTo("ROLLED_BACK");
    assertThat(error.get("failedAt").asText())
        .isEqualTo("upgrade-start-target › start › wait-kubelet");
    assertThat(error.get("causes").get(0).asText())
        .startsWith("ReadinessTimeoutException: kubelet.service did not become ready");
  }

  @Test
  void startAndRestartWhileAnotherProcessHoldsTheLockAreBusyFromTheOperationItself()
      throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.run("stop");

    try (HostLock lock = cli.host().ports().files().tryLock(cli.layout().lock()).orElseThrow()) {
      for (String command : List.of("start", "restart", "stop", "prune", "commit")) {
        Run run = cli.run(command);

        assertThat(run.exitCode()).as(command + ": " + run.err()).isEqualTo(ExitCode.BUSY.code());
        assertThat(run.err()).contains("noneops " + command + ": ").contains("node busy");
      }
    }
  }

  @Test
  void aCrashInTheMiddleOfAnUpgradeIsRecoveredByRecover() throws Exception {
    long afterFlip = mutatingCallsOfAnUpgradeUpToTheFlip() + 1;
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    cli.host().faults().crashAtMutatingCall(afterFlip);

    assertThatThrownBy(() -> cli.run("upgrade")).isInstanceOf(SimulatedCrash.class);
    cli.host().crash();
    Run status = cli.run("status", "--json");
    assertThat(json(status).has("upgradeInFlight")).as(status.err()).isTrue();
    assertThat(json(status).get("upgradeInFlight").isNull())
        .as("the journal survived the crash")
        .isFalse();

    Run recover = cli.run("recover", "--json");

    assertThat(recover.exitCode()).as(recover.err()).isZero();
    assertThat(json(recover).get("outcome").asText()).isEqualTo("ROLLED_BACK");
    assertThat(cli.activeVersion()).contains(v1);
    assertThat(cli.run("recover", "--json").out()).contains("NOTHING_TO_DO");
  }

  @Test
  void stopThenLaunchCheckIsUnhealthyAndStartBringsItBack() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");

    assertThat(cli.run("stop").exitCode()).isZero();
    Run check = cli.run("allocation-launch-check");
    assertThat(check.exitCode()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(check.out()).contains("kubelet.service is inactive");

    assertThat(cli.run("start").exitCode()).isZero();
    assertThat(cli.run("allocation-launch-check").exitCode()).isZero();
  }

  @Test
  void applyWithAConfigurationNeedingOtherBinariesPointsToUpgradeAndChangesNothing()
      throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    FileTreeSnapshot before = cli.host().snapshot(Path.of("/etc"));

    Run run = cli.run("apply");

    assertThat(run.exitCode()).isEqualTo(ExitCode.FAILURE.code());
    assertThat(run.err()).contains("noneops upgrade");
    assertThat(cli.host().snapshot(Path.of("/etc"))).isEqualTo(before);
  }

  @Test
  void resetRemovesTheNodeAndPresentThenSaysAbsent() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");

    Run reset = cli.run("reset", "--json", "--yes");

    assertThat(reset.exitCode()).as(reset.err() + reset.out()).isZero();
    assertThat(json(reset).get("complete").asBoolean()).isTrue();
    Run present = cli.run("present");
    assertThat(present.exitCode()).isEqualTo(ExitCode.ABSENT.code());
    assertThat(present.out().strip()).isEqualTo("absent");
  }

  @Test
  void resetRemovesLocalDnsDummyInterfaceAndNeverALinkOfItsNameOfAnotherKind() throws Exception {
    cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    assertThat(cli.host().kernel().link("localdns0"))
        .hasValueSatisfying(l -> assertThat(l.isDummy()).isTrue());

    Run reset = cli.run("reset", "--yes");

    assertThat(reset.out()).contains("removed LocalDNS interface localdns0");
    assertThat(cli.host().kernel().link("localdns0")).isEmpty();

    cli.run("bootstrap");
    cli.host().kernel().removeLink("localdns0");
    cli.host().kernel().seedLink("localdns0", "bridge");
    Run second = cli.run("reset", "--yes");

    assertThat(second.exitCode()).as(second.err() + second.out()).isZero();
    assertThat(second.out()).doesNotContain("LocalDNS interface");
    assertThat(cli.host().kernel().link("localdns0")).map(l -> l.kind()).contains("bridge");
  }

  @Test
  void versionForNamesTheVersionWithoutChangingAnything() {
    String version = cli.configure(CONFIG, BASE.json());
    FileTreeSnapshot before = cli.host().snapshot();

    Run run = cli.run("version-for");

    assertThat(run.out().strip()).isEqualTo(version);
    assertThat(cli.host().snapshot()).isEqualTo(before);
  }

  @Test
  void planTellsWhatAnUpgradeWouldTakeWithoutChangingAnything() throws Exception {
    String v1 = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    String v2 = cli.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    FileTreeSnapshot before = cli.host().snapshot();

    JsonNode plan = json(cli.run("plan", "--json"));

    assertThat(plan.get("action").asText()).isEqualTo("upgrade");
    assertThat(plan.get("activeVersion").asText()).isEqualTo(v1);
    assertThat(plan.get("targetVersion").asText()).isEqualTo(v2);
    assertThat(plan.get("targetInstalled").asBoolean()).isFalse();
    assertThat(plan.get("downloads").findValuesAsText("artifact"))
        .contains("containerd", "kubelet");
    assertThat(cli.host().snapshot()).isEqualTo(before);
    cli.configure(CONFIG, BASE.json());
    assertThat(cli.run("plan").out())
        .contains("action:   apply")
        .contains("same as the applied configuration");
  }

  @Test
  void verifyFindsATamperedBinary() throws Exception {
    String version = cli.configure(CONFIG, BASE.json());
    cli.run("bootstrap");
    cli.host()
        .ports()
        .files()
        .writeDurably(
            cli.layout().binDir(version).resolve("kubelet"), "#!/bin/sh\n# tampered\n", 0755);

    Run run = cli.run("verify");

    assertThat(run.exitCode()).isEqualTo(ExitCode.UNHEALTHY.code());
    assertThat(run.out()).contains("PROBLEM " + version).contains("kubelet");
  }

  /**
   * How many mutating port calls {@code noneops upgrade} makes up to and including the flip of
   * {@code current} to the new version, counted on a twin host (the simulation is deterministic).
   */
  private static long mutatingCallsOfAnUpgradeUpToTheFlip() {
    SimCli twin = new SimCli(SimulatedHost.create());
    twin.configure(CONFIG, BASE.json());
    twin.run("bootstrap");
    twin.configure(CONFIG, BASE.withContainerd("1.7.23").json());
    int before = twin.host().journal().mutatingCalls().size();
    assertThat(twin.run("upgrade").exitCode()).isZero();
    List<PortCall> calls = twin.host().journal().mutatingCalls();
    for (int i = before; i < calls.size(); i++) {
      PortCall c = calls.get(i);
      if (c.method().equals("symlinkDurably")
          && c.args().get(0).toString().equals(twin.layout().current().toString())) {
        return i - before + 1;
      }
    }
    throw new AssertionError("the upgrade never flipped " + twin.layout().current());
  }

  private static JsonNode json(Run run) throws Exception {
    assertThat(run.out()).as("stdout of a --json run (stderr: %s)", run.err()).startsWith("{");
    return Json.MAPPER.readTree(run.out());
  }

  private static void assertSortedEverywhere(JsonNode node, String where) {
    if (node.isObject()) {
      List<String> keys = new ArrayList<>();
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        keys.add(it.next());
      }
      assertThat(keys).as(where).isSorted();
      node.fields()
          .forEachRemaining(e -> assertSortedEverywhere(e.getValue(), where + "." + e.getKey()));
    } else if (node.isArray()) {
      node.forEach(child -> assertSortedEverywhere(child, where + "[]"));
    }
  }

  private void writeRaw(Path path, String content) {
    try {
      cli.host().ports().files().writeDurably(path, content, 0600);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
