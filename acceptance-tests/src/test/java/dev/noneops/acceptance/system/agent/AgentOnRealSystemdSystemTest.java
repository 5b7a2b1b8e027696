package dev.noneops.acceptance.system.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.testkit.fixtures.sandbox.ExecResult;
import dev.noneops.testkit.fixtures.sandbox.SandboxCli;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import dev.noneops.testkit.fixtures.sandbox.UnitTimes;
import dev.noneops.testkit.fixtures.system.DummyLinkStandIn;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent as a bootstrap through the CLI jar installs it, on a real systemd 252 in a sandbox:
 * the recovery gate ran before the stack, the daemon reached READY (its unit is
 * {@code Type=notify}) and says what it watches, a changed configuration file is applied by the
 * daemon alone, the daemon answers {@code status} and {@code allocation-launch-check} over its
 * socket with exactly what the commands print themselves, kubelet's crash is in the daemon's
 * journal as systemd signals it, also after the system bus restarted (when a changed file is still
 * applied, by the same daemon), a stopped daemon leaves status to the command, and a reset takes
 * the agent away again.
 */
class AgentOnRealSystemdSystemTest {
  private static final String DNS_INTERFACE = "noag0";
  private static final String DNS_ADDRESS = "169.254.20.61";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> STACK = HostPaths.STACK_UNITS;

  private static AgentNodeFixture node;
  private static FleetView fleet;

  @BeforeAll
  static void serveArtifacts() throws Exception {
    assumeThat(SandboxRequirements.unmetReason()).as("sandbox requirements").isEmpty();
    AgentNodeFixture.awaitPortsFree(Duration.ofMinutes(3));
    node = AgentNodeFixture.serve(DNS_INTERFACE, DNS_ADDRESS);
    fleet = FleetView.fromDebian();
  }

  @AfterAll
  static void stopServing() throws Exception {
    if (node != null) {
      node.removeLeftLink();
      node.close();
    }
  }

  private static final String MAN_PAGE = HostPaths.AGENT_MAN_DIR + "/noneops-status.1";

  @Test
  void theBootstrappedAgentGatesTheStackFollowsItsFileAndGoesWithTheNode() throws Exception {
    try (SystemdSandbox sandbox = SystemdSandbox.boot("agent-system")) {
      DummyLinkStandIn.installWhereNeeded(sandbox);
      SandboxCli cli = SandboxCli.copiedInto(sandbox, AgentNodeFixture.builtJar());
      AgentNodeFixture.write(sandbox, AgentNodeFixture.CONFIG, node.base());
      Path operatorsCommand = sandbox.path(HostPaths.AGENT_COMMAND);
      Files.createDirectories(operatorsCommand.getParent());
      Files.writeString(operatorsCommand, OPERATORS_COMMAND);
      Files.setPosixFilePermissions(operatorsCommand, PosixFilePermissions.fromString("rwxr-xr-x"));
      fleet.startExporter(sandbox);

      SandboxCli.Run bootstrap =
          cli.run("bootstrap", "--no-kernel-modules", "--kubelet-timeout", "60s");
      assertThat(bootstrap.exitCode())
          .as("%s%n%s", bootstrap, AgentNodeFixture.stackJournals(sandbox))
          .isZero();

      List<UnitTimes> times = sandbox.unitTimes(List.of(
          HostPaths.RECOVERY_GATE_UNIT,
          HostPaths.LOCALDNS_UNIT,
          HostPaths.CONTAINERD_UNIT,
          HostPaths.KUBELET_UNIT));
      UnitTimes gate = unit(times, HostPaths.RECOVERY_GATE_UNIT);
      assertThat(gate.activeState() + "/" + gate.subState())
          .as("pulled in by the stack's first start, skipped by its conditions: nothing in flight")
          .isEqualTo("inactive/dead");
      assertThat(sandbox.unitProperty(HostPaths.RECOVERY_GATE_UNIT, "ConditionResult"))
          .isEqualTo("no");
      for (String stackUnit : STACK) {
        assertThat(unit(times, stackUnit).activeState()).as(stackUnit).isEqualTo("active");
      }
      assertThat(Files.readSymbolicLink(sandbox.path(MAN_PAGE)).toString())
          .isEqualTo(HostPaths.AGENT_HOME + "/current/share/man/man1/noneops-status.1");
      if (Files.isExecutable(sandbox.path("/usr/bin/man"))) {
        assertThat(sandbox.exec("man", "-w", "noneops-status").stdout().trim())
            .as("man finds the command's page, through the link, in the installed build")
            .startsWith(HostPaths.AGENT_HOME + "/")
            .endsWith("/share/man/man1/noneops-status.1");
      }
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "Type")).isEqualTo("notify");
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "ActiveState") + "/"
              + sandbox.unitProperty(HostPaths.AGENT_UNIT, "SubState"))
          .as(sandbox.journal(HostPaths.AGENT_UNIT))
          .isEqualTo("active/running");
      String agentPid = sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID");
      assertThat(sandbox
              .exec("grep", "-c", "/lib/noneops.jsa", "/proc/" + agentPid + "/maps")
              .stdout()
              .strip())
          .as("the daemon starts from the installed build's class-data archive, made at install")
          .isNotIn("", "0");
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "StatusText"))
          .isEqualTo("watching " + AgentNodeFixture.CONFIG);
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "WatchdogUSec")).isEqualTo("2min");
      theFleetSeesTheBootstrappedNode(sandbox);

      Path applied = sandbox.path(HostPaths.realHost().appliedConfig().toString());
      assertThat(Files.readString(applied)).doesNotContain("relabelled");
      long changed = System.nanoTime();
      AgentNodeFixture.write(
          sandbox, AgentNodeFixture.CONFIG, AgentNodeFixture.withPool(node.base(), "relabelled"));
      Duration toApplied = awaitContent(applied, "relabelled", Duration.ofSeconds(60), changed);
      System.out.println("agent on a real systemd: a changed configuration file applied after "
          + toApplied.toMillis() + " ms (the daemon looks at the file's metadata every 200 ms)");
      Path statePath = sandbox.path(HostPaths.realHost().agentState().toString());
      awaitContent(statePath, "APPLIED", Duration.ofSeconds(10), System.nanoTime());
      JsonNode state = JSON.readTree(Files.readString(statePath));
      assertThat(state.path("lastOperation").path("outcome").asText()).isEqualTo("APPLIED");
      assertThat(state.path("lastOperation").path("kind").asText()).isEqualTo("apply");
      assertThat(sandbox
              .exec(
                  "sh",
                  "-c",
                  "tr '\\0' ' ' < /proc/$(systemctl show -p MainPID"
                      + " --value kubelet.service)/cmdline")
              .stdout())
          .contains("example.com/pool=relabelled");

      theRunningDaemonAnswersAsTheCommandItselfPrints(sandbox, cli);
      aStoppedDaemonLeavesStatusToTheCommandItself(sandbox, cli);
      sandbox.systemctl("start", HostPaths.AGENT_UNIT).orThrow();
      assertThat(stat(sandbox, SOCKET.toString()))
          .as("the socket of the daemon started again")
          .isEqualTo("socket 600");

      String followed = aSecondBootstrapWithAnotherFileRestartsTheDaemon(sandbox, cli);

      long killed = System.nanoTime();
      assertThat(sandbox
              .exec("systemctl", "kill", "--kill-who=main", "-s", "KILL", HostPaths.KUBELET_UNIT)
              .exitCode())
          .isZero();
      Duration toLogged = awaitAgentJournal(
          sandbox, HostPaths.KUBELET_UNIT + " failed", Duration.ofSeconds(4), killed);
      System.out.println("agent on a real systemd: kubelet's crash in the agent's journal after "
          + toLogged.toMillis() + " ms (signalled by systemd; the daemon polls every 5 s)");

      aRestartedSystemBusLeavesTheDaemonWatchingAndFollowing(sandbox, followed);
      theFleetSeesAnUpgradeAndARollback(sandbox, cli, followed);

      SandboxCli.Run reset = cli.run("reset", "--yes");
      assertThat(reset.exitCode()).as(reset.toString()).isZero();

      for (String gone : List.of(
          "/etc/systemd/system/" + HostPaths.RECOVERY_GATE_UNIT,
          "/etc/systemd/system/" + HostPaths.AGENT_UNIT,
          HostPaths.AGENT_HOME,
          MAN_PAGE,
          HostPaths.realHost().agentState().toString())) {
        assertThat(Files.exists(sandbox.path(gone), LinkOption.NOFOLLOW_LINKS))
            .as(gone + " removed by reset")
            .isFalse();
      }
      for (String stackUnit : STACK) {
        assertThat(Files.exists(
                sandbox.path("/etc/systemd/system/" + stackUnit + ".d/05-noneops-recover.conf")))
            .as(stackUnit + "'s gate drop-in")
            .isFalse();
      }
      assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "ActiveState")).isEqualTo("inactive");
      assertThat(stat(sandbox, HostPaths.AGENT_RUN_DIR))
          .as("the daemon's run-time directory after the reset")
          .isEqualTo("nothing");
      assertThat(Files.isSymbolicLink(operatorsCommand))
          .as("the operator's own %s, a file, is back", HostPaths.AGENT_COMMAND)
          .isFalse();
      assertThat(Files.readString(operatorsCommand))
          .as("the operator's own %s, put back byte for byte", HostPaths.AGENT_COMMAND)
          .isEqualTo(OPERATORS_COMMAND);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(operatorsCommand)))
          .isEqualTo("rwxr-xr-x");
    }
  }

  private static final Path SOCKET = HostPaths.realHost().agentSocket();

  /**
   * After the bootstrap, node_exporter's textfile collector serves the agent's metrics: the
   * active version, the stack's units active, the operations at zero; and promtool finds them
   * well formed.
   */
  private static void theFleetSeesTheBootstrappedNode(SystemdSandbox sandbox) throws Exception {
    String scraped = FleetView.awaitScrape(
        sandbox,
        text -> text.contains("noneops_active_version_info{version=\"" + AgentNodeFixture.K8S)
            && text.contains("noneops_unit_active{unit=\"kubelet.service\"} 1"),
        "the bootstrapped node's version and its units",
        Duration.ofSeconds(90));
    String agents = FleetView.noneops(scraped);
    assertThat(agents)
        .contains("noneops_unit_active{unit=\"containerd.service\"} 1")
        .contains("noneops_operations_total{operation=\"upgrade\",outcome=\"rolled-back\"} 0")
        .contains("noneops_daemon_last_tick_timestamp_seconds ");
    FleetView.ExecResultOnHost check = fleet.promtoolCheck(agents);
    System.out.println("agent on a real systemd: promtool check metrics of the agent's series"
        + " after the bootstrap: exit " + check.exitCode() + " "
        + check.output().strip());
    assertThat(check.exitCode()).as(check.output()).isZero();
  }

  /**
   * The daemon upgrades to another version and then rolls a target whose kubelet never answers
   * back (kubelet's wait bounded at 15 s through a drop-in, which also has it serve /metrics
   * itself): node_exporter serves the counters of both, kept across the daemon's restart,
   * promtool finds the series well formed, the rollback is a journal entry found by its field
   * with its message id, versions, task path and error kind, and {@code status --json} carries
   * the same counters.
   */
  private static void theFleetSeesAnUpgradeAndARollback(
      SystemdSandbox sandbox, SandboxCli cli, String followed) throws Exception {
    String upgraded = "noneops_operations_total{operation=\"upgrade\",outcome=\"upgraded\"} 1";
    String rolledBack = "noneops_operations_total{operation=\"upgrade\",outcome=\"rolled-back\"} 1";
    AgentNodeFixture.write(sandbox, followed, node.upgraded());
    FleetView.awaitScrape(
        sandbox, text -> text.contains(upgraded), "the upgrade counted", Duration.ofSeconds(120));

    FleetView.agentWith(
        sandbox,
        followed,
        "--kubelet-timeout",
        "15s",
        "--metrics-listen",
        "127.0.0.1:" + FleetView.AGENT_PORT);
    String own = FleetView.awaitScrape(
        sandbox,
        FleetView.AGENT_PORT,
        text -> text.contains("noneops_daemon_last_tick_timestamp_seconds"),
        "the agent's own /metrics",
        Duration.ofSeconds(60));
    assertThat(own).as("the restarted daemon goes on counting where it stopped").contains(upgraded);

    AgentNodeFixture.write(sandbox, followed, node.neverHealthy());
    String scraped = FleetView.awaitScrape(
        sandbox,
        text -> text.contains(rolledBack),
        "the rollback counted",
        Duration.ofSeconds(180));
    String agents = FleetView.noneops(scraped);
    assertThat(agents)
        .contains(upgraded)
        .contains("noneops_quarantined 1")
        .contains("noneops_quarantined_target_info{version=\"" + AgentNodeFixture.K8S_NEVER_HEALTHY)
        .contains("noneops_active_version_info{version=\"" + AgentNodeFixture.K8S + "-")
        .contains("noneops_switch_over_duration_seconds_count ")
        .contains("noneops_operation_duration_seconds_count{operation=\"upgrade\","
            + "outcome=\"rolled-back\"} 1");
    assertThat(FleetView.scrape(FleetView.AGENT_PORT))
        .as("the agent's own /metrics")
        .contains(rolledBack);
    FleetView.ExecResultOnHost check = fleet.promtoolCheck(agents);
    System.out.println("agent on a real systemd: promtool check metrics of the agent's series"
        + " after an upgrade and a rollback: exit " + check.exitCode() + " "
        + check.output().strip());
    assertThat(check.exitCode()).as(check.output()).isZero();

    List<JsonNode> rollbacks = FleetView.agentJournal(sandbox, "NONEOPS_OUTCOME", "rolled-back");
    assertThat(rollbacks)
        .as("journalctl -u %s NONEOPS_OUTCOME=rolled-back", HostPaths.AGENT_UNIT)
        .singleElement()
        .satisfies(e -> {
          assertThat(e.path("MESSAGE_ID").asText()).isEqualTo("ef6e395a3703440aae279d3d31bf6a64");
          assertThat(e.path("NONEOPS_OPERATION").asText()).isEqualTo("upgrade");
          assertThat(e.path("PRIORITY").asText()).isEqualTo("3");
          assertThat(e.path("NONEOPS_TO_VERSION").asText())
              .startsWith(AgentNodeFixture.K8S_NEVER_HEALTHY + "-");
          assertThat(e.path("NONEOPS_FROM_VERSION").asText())
              .startsWith(AgentNodeFixture.K8S + "-");
          assertThat(e.path("NONEOPS_TASK_PATH").asText()).contains("upgrade");
          assertThat(e.path("NONEOPS_ERROR_KIND").asText()).isNotEmpty();
          assertThat(e.path("_SYSTEMD_UNIT").asText()).isEqualTo(HostPaths.AGENT_UNIT);
        });
    System.out.println("agent on a real systemd: the rollback's journal entry: "
        + rollbacks.get(0).path("MESSAGE").asText() + " ("
        + rollbacks.get(0).path("NONEOPS_TASK_PATH").asText() + ", "
        + rollbacks.get(0).path("NONEOPS_ERROR_KIND").asText() + ")");

    SandboxCli.Run status = cli.run("--json", "status");
    JsonNode counters = JSON.readTree(status.out()).path("agent").path("counters");
    assertThat(counters.path("operations").path("upgrade").path("rolled-back").asLong())
        .as(status.out())
        .isEqualTo(1);
    assertThat(counters.path("operations").path("upgrade").path("upgraded").asLong())
        .isEqualTo(1);
    assertThat(counters.path("bytesDownloaded").asLong()).isPositive();

    FleetView.agentAsInstalled(sandbox);
    fleet.stopExporter(sandbox);
  }

  /**
   * A bootstrap run again with another configuration file rewrites the daemon's unit and restarts
   * the daemon, which then watches the new file: not the old daemon left running on the old one.
   * Returns the file the daemon now follows.
   */
  private static String aSecondBootstrapWithAnotherFileRestartsTheDaemon(
      SystemdSandbox sandbox, SandboxCli cli) throws Exception {
    String before = sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID");
    String other = "/etc/unbounded/agent/other.json";
    AgentNodeFixture.write(sandbox, other, AgentNodeFixture.withPool(node.base(), "relabelled"));

    SandboxCli.Run again =
        cli.run("bootstrap", "--no-kernel-modules", "--kubelet-timeout", "60s", "--config", other);

    assertThat(again.exitCode())
        .as("%s%n%s", again, sandbox.journal(HostPaths.AGENT_UNIT))
        .isZero();
    assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID"))
        .as("the daemon runs again, on the unit that was installed")
        .isNotEqualTo(before);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!sandbox.unitProperty(HostPaths.AGENT_UNIT, "StatusText").equals("watching " + other)
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "StatusText"))
        .isEqualTo("watching " + other);
    return other;
  }

  /**
   * With the daemon running, the inspections answered over its socket print, byte for byte, what
   * {@code --direct} prints (but the uptimes, which move between two calls), exit the same, and
   * load neither the D-Bus client nor Jackson, which the direct path loads.
   */
  private static void theRunningDaemonAnswersAsTheCommandItselfPrints(
      SystemdSandbox sandbox, SandboxCli cli) throws Exception {
    assertThat(stat(sandbox, SOCKET.toString()))
        .as("the daemon's socket, root's only")
        .isEqualTo("socket 600");
    assertThat(stat(sandbox, HostPaths.AGENT_RUN_DIR)).isEqualTo("directory 700");
    for (List<String> command : List.of(
        List.of("status"),
        List.of("--json", "status"),
        List.of("allocation-launch-check"),
        List.of("allocation-launch-check", "--json"))) {
      ClassLoadingRun daemon = ClassLoadingRun.of(sandbox, cli, command);
      List<String> direct = new ArrayList<>(command);
      direct.add("--direct");
      ClassLoadingRun itself = ClassLoadingRun.of(sandbox, cli, direct);
      assertThat(withoutUptimes(daemon.stdout()))
          .as("%s answered by the daemon and by the command itself", command)
          .isEqualTo(withoutUptimes(itself.stdout()));
      assertThat(daemon.exitCode()).as("%s", command).isEqualTo(itself.exitCode());
      assertThat(daemon.loaded("org.freedesktop.dbus.", "com.fasterxml.jackson.", "jnr."))
          .as("%s answered by the daemon", command)
          .isEmpty();
      assertThat(itself.loaded("org.freedesktop.dbus.", "com.fasterxml.jackson."))
          .as("%s --direct", command)
          .isNotEmpty();
    }
    System.out.println("agent on a real systemd: status, median of 5 runs of the sandbox CLI"
        + " (no application class-data archive): answered by the daemon "
        + medianMillis(cli, "status") + " ms, --direct " + medianMillis(cli, "status", "--direct")
        + " ms");
  }

  /**
   * With the daemon stopped, its socket is gone and {@code status} inspects the host itself:
   * the daemon's unit inactive, the stack still running.
   */
  private static void aStoppedDaemonLeavesStatusToTheCommandItself(
      SystemdSandbox sandbox, SandboxCli cli) throws Exception {
    sandbox.systemctl("stop", HostPaths.AGENT_UNIT).orThrow();
    assertThat(stat(sandbox, SOCKET.toString()))
        .as("the stopped daemon's socket")
        .isEqualTo("nothing");

    SandboxCli.Run status = cli.run("status");
    SandboxCli.Run direct = cli.run("status", "--direct");

    assertThat(status.exitCode()).as(status.toString()).isZero();
    assertThat(direct.exitCode()).as(direct.toString()).isZero();
    // the JVM ends a SIGTERM with status 143, which the unit counts as a success: a stopped
    // agent is not a failed unit in `systemctl --failed`
    assertThat(status.out())
        .contains("stack:     running")
        .contains("daemon:    " + HostPaths.AGENT_UNIT + " inactive/dead");
    assertThat(withoutUptimes(status.out())).isEqualTo(withoutUptimes(direct.out()));
  }

  private static String withoutUptimes(String out) {
    return out.replaceAll(", up [0-9dhms ]+\n", ", up ...\n");
  }

  private static long medianMillis(SandboxCli cli, String... args) throws Exception {
    List<Long> millis = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long start = System.nanoTime();
      cli.run(args);
      millis.add((System.nanoTime() - start) / 1_000_000);
    }
    Collections.sort(millis);
    return millis.get(2);
  }

  /** {@code socket 600}, {@code directory 700}, as {@code stat} inside the sandbox sees it. */
  private static String stat(SystemdSandbox sandbox, String path) {
    ExecResult stat = sandbox.exec("stat", "-c", "%F %a", path);
    return stat.exitCode() == 0 ? stat.stdout().strip() : "nothing";
  }

  /** One run of the sandbox's CLI that logs every class it loads to stderr. */
  private record ClassLoadingRun(int exitCode, String stdout, String stderr) {
    static ClassLoadingRun of(SystemdSandbox sandbox, SandboxCli cli, List<String> args) {
      List<String> command = new ArrayList<>(cli.commandInside());
      command.add(command.indexOf("-jar"), "-Xlog:class+load=info:stderr");
      command.addAll(args);
      ExecResult run = sandbox.exec(command, Duration.ofMinutes(1));
      return new ClassLoadingRun(run.exitCode(), run.stdout(), run.stderr());
    }

    /** The loaded classes whose names start with one of {@code prefixes}. */
    List<String> loaded(String... prefixes) {
      return stderr
          .lines()
          .filter(line -> line.contains("[class,load]"))
          .map(line -> line.replaceFirst(".*\\[class,load\\] ", "").split(" ")[0])
          .filter(name -> List.of(prefixes).stream().anyMatch(name::startsWith))
          .toList();
    }
  }

  /** A command of the operator's own at the path where the agent links its command. */
  private static final String OPERATORS_COMMAND =
      "#!/bin/sh\necho the operator's own noneops \"$@\"\n";

  private static UnitTimes unit(List<UnitTimes> times, String unit) {
    return times.stream().filter(t -> t.unit().equals(unit)).findFirst().orElseThrow();
  }

  /**
   * After {@code systemctl restart dbus.service} the same daemon, connected again on its own, has
   * kubelet's next crash in its journal as systemd signals it and applies a changed file.
   */
  private static void aRestartedSystemBusLeavesTheDaemonWatchingAndFollowing(
      SystemdSandbox sandbox, String followed) throws Exception {
    String agentPid = sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID");
    awaitActive(sandbox, HostPaths.KUBELET_UNIT, Duration.ofSeconds(30));
    String failed = HostPaths.KUBELET_UNIT + " failed";
    String cursor = journalCursor(sandbox);

    sandbox.systemctl("restart", "dbus.service").orThrow();
    long restarted = System.nanoTime();
    while (!journalAfter(sandbox, cursor).contains("reconnected to D-Bus")
        && System.nanoTime() < restarted + Duration.ofSeconds(10).toNanos()) {
      Thread.sleep(50);
    }
    assertThat(journalAfter(sandbox, cursor))
        .as("the daemon reconnected within 10 s of the bus restarting")
        .contains("reconnected to D-Bus");
    System.out.println("agent on a real systemd: the daemon reconnected "
        + Duration.ofNanos(System.nanoTime() - restarted).toMillis()
        + " ms after dbus.service restarted");

    long killed = System.nanoTime();
    sandbox
        .exec("systemctl", "kill", "--kill-who=main", "-s", "KILL", HostPaths.KUBELET_UNIT)
        .orThrow();
    long deadline = killed + Duration.ofSeconds(10).toNanos();
    while (!journalAfter(sandbox, cursor).contains(failed) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(journalAfter(sandbox, cursor))
        .as("kubelet's crash after the bus restarted, in the agent's journal within 10 s")
        .contains(failed);
    System.out.println("agent on a real systemd: after dbus.service restarted, kubelet's crash in"
        + " the agent's journal after "
        + Duration.ofNanos(System.nanoTime() - killed).toMillis()
        + " ms");

    Path applied = sandbox.path(HostPaths.realHost().appliedConfig().toString());
    long changed = System.nanoTime();
    AgentNodeFixture.write(
        sandbox, followed, AgentNodeFixture.withPool(node.base(), "after-bus-restart"));
    try {
      awaitContent(applied, "after-bus-restart", Duration.ofSeconds(60), changed);
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage() + "; the agent's journal:\n" + sandbox.journal(HostPaths.AGENT_UNIT), e);
    }
    assertThat(sandbox.unitProperty(HostPaths.AGENT_UNIT, "MainPID"))
        .as("the same daemon, not one the watchdog had systemd restart")
        .isEqualTo(agentPid);
  }

  private static void awaitActive(SystemdSandbox sandbox, String unit, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!sandbox.unitProperty(unit, "ActiveState").equals("active")
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(sandbox.unitProperty(unit, "ActiveState")).as(unit).isEqualTo("active");
  }

  /** The cursor of the agent's last journal entry. */
  private static String journalCursor(SystemdSandbox sandbox) {
    String out = sandbox
        .exec("journalctl", "--no-pager", "-u", HostPaths.AGENT_UNIT, "-n", "1", "--show-cursor")
        .orThrow()
        .stdout();
    String marker = "-- cursor: ";
    return out.substring(out.lastIndexOf(marker) + marker.length()).strip();
  }

  /** The agent's journal after the entry at {@code cursor}. */
  private static String journalAfter(SystemdSandbox sandbox, String cursor) {
    return sandbox
        .exec("journalctl", "--no-pager", "-u", HostPaths.AGENT_UNIT, "--after-cursor=" + cursor)
        .stdout();
  }

  /** Waits for {@code text} in the agent's journal: a crash systemd restarts is in it at once. */
  private static Duration awaitAgentJournal(
      SystemdSandbox sandbox, String text, Duration timeout, long sinceNanos) throws Exception {
    long deadline = sinceNanos + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (sandbox.journal(HostPaths.AGENT_UNIT).contains(text)) {
        return Duration.ofNanos(System.nanoTime() - sinceNanos);
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the agent's journal did not come to say '" + text + "' within "
        + timeout + ":\n" + sandbox.journal(HostPaths.AGENT_UNIT));
  }

  private static Duration awaitContent(Path file, String text, Duration timeout, long sinceNanos)
      throws Exception {
    long deadline = sinceNanos + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(file) && Files.readString(file).contains(text)) {
        return Duration.ofNanos(System.nanoTime() - sinceNanos);
      }
      Thread.sleep(20);
    }
    throw new AssertionError(file + " did not come to contain " + text + " within " + timeout);
  }
}
