package dev.noneops.acceptance.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.noneops.core.goalstate.MachineGoalState;
import dev.noneops.core.node.BootstrapResult;
import dev.noneops.core.node.Node;
import dev.noneops.core.node.PreflightFailedException;
import dev.noneops.core.node.PreflightReport;
import dev.noneops.core.node.PreflightReport.Check;
import dev.noneops.core.node.PreflightReport.Verdict;
import dev.noneops.ports.Errno;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.testkit.fixtures.node.SimNode;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.gate.FaultRule;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Node.preflight()} on the simulated host: each check passes on a clean host, and warns or
 * fails, with what to do, on a host that is not ready; bootstrap runs the same checks and stops
 * on a failure before it changes anything, but not on a warning.
 */
class PreflightScenarioTest {
  private final SimNode lab = new SimNode();
  private MachineGoalState goal;
  private Node node;

  @BeforeEach
  void aConfiguredNodeWithItsArtifactsPublished() {
    goal = lab.goal(SimNode.config());
    lab.publish(goal);
    node = lab.node(SimNode.config());
  }

  private Check check(String name) {
    return node.preflight().check(name).orElseThrow();
  }

  @Test
  void aCleanHostPassesEveryCheckAndOnlyWarnsOfTheSysctlsBootstrapApplies() {
    PreflightReport report = node.preflight();

    assertThat(report.checks())
        .extracting(Check::name)
        .containsExactly(
            "root",
            "systemd",
            "cgroup-v2",
            "kernel-modules",
            "sysctls",
            "swap",
            "kubelet-healthz-port",
            "kubelet-port",
            "localdns-port",
            "foreign-stack",
            "shared-files",
            "free-space",
            "artifact-sources");
    assertThat(report.passed()).isTrue();
    assertThat(report.warnings()).extracting(Check::name).containsExactly("sysctls");
    assertThat(report.check("sysctls").orElseThrow().detail())
        .startsWith("13 of 13 not in force: kernel.keys.root_maxbytes=(absent),")
        .endsWith(" and 9 more");
    assertThat(report.check("sysctls").orElseThrow().remedy()).contains("bootstrap applies them");
    assertThat(report.checks())
        .filteredOn(c -> c.verdict() == Verdict.OK)
        .allSatisfy(c -> assertThat(c.remedy()).isEmpty());
  }

  @Test
  void preflightChangesNothingOnTheHost() {
    FileTreeSnapshot before = lab.host.snapshot();
    lab.host.journal().clear();

    node.preflight();

    assertThat(lab.host.snapshot().diff(before)).isEmpty();
    assertThat(lab.host.journal().mutatingCalls()).isEmpty();
    assertThat(lab.host.artifacts().bytesServed()).as("HEAD requests only").isZero();
  }

  @Test
  void notRunningAsRootFails() {
    lab.host.facts().privileged(false);

    Check root = check("root");

    assertThat(root.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(root.remedy()).contains("sudo");
  }

  @Test
  void aDegradedOrBootingSystemdWarnsAndAnOldOrStoppingOneFails() {
    lab.host.systemd().setManager(new ManagerState("252.38-1~deb12u1", "degraded"));
    assertThat(check("systemd"))
        .extracting(Check::verdict, Check::detail)
        .containsExactly(Verdict.WARN, "systemd 252.38-1~deb12u1, degraded");
    assertThat(check("systemd").remedy()).contains("systemctl --failed");

    lab.host.systemd().setManager(new ManagerState("252", "starting"));
    assertThat(check("systemd").verdict()).isEqualTo(Verdict.WARN);

    lab.host.systemd().setManager(new ManagerState("237", "running"));
    assertThat(check("systemd").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(check("systemd").detail()).contains("older than 240");

    lab.host.systemd().setManager(new ManagerState("252", "stopping"));
    assertThat(check("systemd").verdict()).isEqualTo(Verdict.FAIL);
  }

  @Test
  void aSystemdThatCannotBeAskedFails() {
    lab.host
        .faults()
        .add(FaultRule.when(call -> call.is("systemd.manager"))
            .failWith(call -> new SystemdException(
                SystemdException.Kind.UNREACHABLE, "", "no system bus at /run/dbus")));

    Check systemd = check("systemd");

    assertThat(systemd.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(systemd.detail()).contains("no system bus at /run/dbus");
  }

  @Test
  void withoutACgroupV2HierarchyItFails() {
    lab.host.processes().setCgroupsAvailable(false);

    assertThat(check("cgroup-v2").verdict()).isEqualTo(Verdict.FAIL);
    assertThat(check("cgroup-v2").remedy()).contains("systemd.unified_cgroup_hierarchy=1");
  }

  @Test
  void aMissingKernelModuleFailsUnlessTheKernelIsLeftAlone() {
    lab.host.kernel().makeUnavailable("br_netfilter");

    Check tuning = node.preflight(true).check("kernel-modules").orElseThrow();
    Check leftAlone = node.preflight(false).check("kernel-modules").orElseThrow();

    assertThat(tuning.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(tuning.detail()).isEqualTo("not in this kernel: br_netfilter");
    assertThat(leftAlone.verdict()).isEqualTo(Verdict.WARN);
  }

  @Test
  void afterABootstrapTheSysctlsAreInForceAndThePortsAreTheNodesOwn() {
    lab.bootstrap(goal);
    lab.host.kernel().listen(new Listener(Listener.TCP, "127.0.0.1", 10248));
    lab.host.kernel().listen(new Listener(Listener.TCP, "::", 10250));

    PreflightReport report = node.preflight();

    assertThat(report.check("sysctls").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(report.check("kubelet-healthz-port").orElseThrow().detail())
        .isEqualTo("127.0.0.1:10248/tcp is held by this node's kubelet.service");
    assertThat(report.check("kubelet-port").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(report.check("foreign-stack").orElseThrow().verdict()).isEqualTo(Verdict.OK);
    assertThat(report.check("artifact-sources").orElseThrow().detail())
        .endsWith("is installed and verified; nothing to download");
    assertThat(report.warnings()).isEmpty();
  }

  @Test
  void swapInUseFails() {
    lab.host.facts().swaps(List.of("/swap.img"));

    assertThat(check("swap"))
        .extracting(Check::verdict, Check::detail)
        .containsExactly(Verdict.FAIL, "on: /swap.img");
    assertThat(check("swap").remedy()).contains("swapoff -a");
  }

  @Test
  void aPortAnotherProgramBindsFailsAndAnotherAddressOfTheSamePortDoesNot() {
    lab.host.kernel().listen(new Listener(Listener.TCP, "0.0.0.0", 10250));
    lab.host.kernel().listen(new Listener(Listener.UDP, "127.0.0.53", 53));
    lab.host.kernel().listen(new Listener(Listener.TCP, "127.0.0.53", 53));

    PreflightReport report = node.preflight();

    Check kubelet = report.check("kubelet-port").orElseThrow();
    assertThat(kubelet.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(kubelet.detail()).isEqualTo("0.0.0.0:10250/tcp is taken (0.0.0.0:10250/tcp bound)");
    assertThat(kubelet.remedy()).contains("kubelet.service needs it");
    assertThat(report.check("localdns-port").orElseThrow().verdict())
        .as("systemd-resolved's stub on 127.0.0.53 leaves LocalDNS's address free")
        .isEqualTo(Verdict.OK);
    assertThat(report.check("kubelet-healthz-port").orElseThrow().verdict()).isEqualTo(Verdict.OK);

    lab.host.kernel().listen(new Listener(Listener.UDP, "0.0.0.0", 53));
    assertThat(check("localdns-port").verdict())
        .as("a resolver on every address takes LocalDNS's too")
        .isEqualTo(Verdict.FAIL);
  }

  @Test
  void aKubeletOfTheHostsOwnFails() {
    lab.host.installExecutable(Path.of("/usr/bin/kubelet"), "#!/bin/sh\n# kubeadm's kubelet\n");

    Check foreign = check("foreign-stack");

    assertThat(foreign.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(foreign.detail())
        .isEqualTo("binary /usr/bin/kubelet is not owned by /opt/unbounded/node");
  }

  @Test
  void aFileOfTheHostsOwnAtASharedPathWarnsThatItIsTakenOver() throws Exception {
    lab.host.fs().seedFile(Path.of("/etc/containerd/config.toml"), "# the host's own\n", 0644);

    Check shared = check("shared-files");

    assertThat(shared.verdict()).isEqualTo(Verdict.WARN);
    assertThat(shared.detail()).contains("/etc/containerd/config.toml");
    assertThat(shared.remedy()).contains("put back at reset");
  }

  @Test
  void littleFreeSpaceWarnsAndTooLittleFails() {
    lab.host.facts().usableBytes(5L << 30);
    assertThat(check("free-space"))
        .extracting(Check::verdict, Check::detail)
        .containsExactly(Verdict.WARN, "5.0 GiB free under /opt/unbounded/node");

    lab.host.facts().usableBytes(1L << 30);
    assertThat(check("free-space").verdict()).isEqualTo(Verdict.FAIL);
  }

  @Test
  void anArtifactThatIsNotThereOrAHostThatDoesNotAnswerFails() {
    URI kubelet = goal.rootFs().artifacts().stream()
        .filter(a -> a.name().equals("kubelet"))
        .findFirst()
        .orElseThrow()
        .url();
    lab.host.artifacts().remove(kubelet);

    Check missing = check("artifact-sources");

    assertThat(missing.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(missing.detail()).isEqualTo("kubelet: HTTP 404 at " + kubelet);

    lab.host.faults().add(FaultRule.when(call -> call.is("downloads.head")).fail(Errno.EIO));
    lab.host.journal().clear();
    Check silent = check("artifact-sources");
    assertThat(silent.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(silent.detail())
        .startsWith("kubelet: no answer from " + kubelet + " (")
        .endsWith(" on hosts that did not answer not asked");
    assertThat(lab.host.journal().calls())
        .filteredOn(c -> c.is("downloads.head"))
        .as("one HEAD per host that does not answer, not one per artifact")
        .hasSize((int) goal.rootFs().artifacts().stream()
            .map(a -> a.url().getHost())
            .distinct()
            .count());
  }

  @Test
  void bootstrapStopsOnAFailedCheckWithTheHostByteIdentical() {
    lab.host.kernel().listen(new Listener(Listener.TCP, "0.0.0.0", 10250));
    lab.host.facts().swaps(List.of("/dev/vda2"));
    FileTreeSnapshot before = lab.host.snapshot();
    lab.host.journal().clear();

    PreflightFailedException refused =
        catchThrowableOfType(PreflightFailedException.class, () -> node.bootstrap(true));

    assertThat(refused.failedChecks()).containsExactly("swap", "kubelet-port");
    assertThat(refused.failedAt()).contains("bootstrap › preflight");
    assertThat(refused)
        .hasMessage("preflight failed: swap (on: /dev/vda2); kubelet-port (0.0.0.0:10250/tcp is"
            + " taken (0.0.0.0:10250/tcp bound)); nothing was changed (noneops preflight says what"
            + " to do)");
    assertThat(lab.host.snapshot()).as("the host tree is byte-identical").isEqualTo(before);
    assertThat(lab.host.journal().mutatingCalls()).isEmpty();
    assertThat(lab.host.kernel().loadedModules()).isEmpty();
  }

  @Test
  void aWarningDoesNotStopBootstrap() {
    lab.host.systemd().setManager(new ManagerState("252", "degraded"));
    lab.host.facts().usableBytes(5L << 30);

    BootstrapResult result = node.bootstrap(true);

    assertThat(result.running()).isTrue();
  }
}
