package dev.noneops.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.testkit.gate.Calls;
import dev.noneops.testkit.process.ProcessSpec;
import dev.noneops.testkit.systemd.UnitBehaviour;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The simulated systemd: unit files, jobs, dependencies, main processes, scripted failures. */
class SimulatedSystemdTest {
  private static final Duration T = Duration.ofSeconds(30);
  private static final Path UNITS = Path.of("/etc/systemd/system");

  private final SimulatedHost host = SimulatedHost.create();
  private final Systemd systemd = host.ports().systemd();

  SimulatedSystemdTest() throws IOException {
    host.installExecutable(Path.of("/opt/node/v1/bin/containerd"), "containerd v1");
    host.installExecutable(Path.of("/opt/node/v1/bin/kubelet"), "kubelet v1");
    host.installExecutable(Path.of("/opt/node/v2/bin/kubelet"), "kubelet v2");
    host.fs().seedSymlink(Path.of("/opt/node/current"), "v1");
    unit(
        "containerd.service",
        "[Unit]\nAfter=network.target\n[Service]\nType=notify\nKillMode=process\nExecStart=/opt/node/current/bin/containerd\n"
            + "[Install]\nWantedBy=multi-user.target\n");
    unit(
        "kubelet.service",
        "[Unit]\nWants=network-online.target containerd.service\nAfter=containerd.service\n[Service]\n"
            + "Environment=\"KUBELET_NODE_ARGS=--node-labels=a=b --v=2\"\nEnvironmentFile=-/etc/default/kubelet\n"
            + "ExecStart=/opt/node/current/bin/kubelet \\\n    $KUBELET_NODE_ARGS $KUBELET_EXTRA_ARGS --x=${KUBELET_NODE_ARGS}\n");
  }

  private void unit(String name, String content) throws IOException {
    host.fs().seedFile(UNITS.resolve(name), content, 0644);
  }

  @Test
  void startingKubeletPullsInContainerdAndRunsTheVersionCurrentPointsAt() throws IOException {
    assertThat(systemd.start("kubelet.service", T)).isEqualTo(JobResult.DONE);
    assertThat(systemd.status("containerd.service").active()).isEqualTo(ActiveState.ACTIVE);
    UnitStatus kubelet = systemd.status("kubelet.service");
    assertThat(kubelet.sub()).isEqualTo("running");
    assertThat(kubelet.fragmentPath()).isEqualTo("/etc/systemd/system/kubelet.service");
    ProcessInfo main = host.ports().processes().get(kubelet.mainPid()).orElseThrow();
    assertThat(main.exe()).contains("/opt/node/v1/bin/kubelet");
    assertThat(main.argv())
        .containsExactly(
            "/opt/node/current/bin/kubelet",
            "--node-labels=a=b",
            "--v=2",
            "--x=--node-labels=a=b --v=2");
    assertThat(main.cgroup()).isEqualTo("/system.slice/kubelet.service");
    assertThat(host.systemd().history())
        .extracting(Object::toString)
        .containsSubsequence("containerd.service started", "kubelet.service started");
  }

  @Test
  void theEnvironmentFileFeedsTheCommandLine() throws IOException {
    host.fs()
        .seedFile(Path.of("/etc/default/kubelet"), "KUBELET_EXTRA_ARGS=\"--max-pods=50\"\n", 0644);
    systemd.start("kubelet.service", T);
    assertThat(host.systemd().mainProcess("kubelet.service").orElseThrow().argv())
        .contains("--max-pods=50");
  }

  @Test
  void aRestartAfterTheLinkFlipRunsTheNewVersion() throws IOException {
    systemd.start("kubelet.service", T);
    host.fs().seedSymlink(Path.of("/opt/node/current"), "v2");
    assertThat(systemd.restart("kubelet.service", T)).isEqualTo(JobResult.DONE);
    assertThat(host.systemd().mainProcess("kubelet.service").orElseThrow().exe())
        .contains("/opt/node/v2/bin/kubelet");
  }

  @Test
  void killModeProcessLeavesOtherProcessesOfTheCgroupRunning() throws IOException {
    systemd.start("containerd.service", T);
    long shim = host.spawn(ProcessSpec.of("/opt/node/v1/bin/containerd", "shim")
            .inCgroup("/system.slice/containerd.service"))
        .pid();
    systemd.stop("containerd.service", T);
    assertThat(host.ports().processes().get(shim)).isPresent();
    assertThat(systemd.status("containerd.service").active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void anUnknownUnitIsNotFoundAndCannotBeStarted() {
    assertThat(systemd.status("nope.service").load()).isEqualTo(LoadState.NOT_FOUND);
    assertThatThrownBy(() -> systemd.start("nope.service", T))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void aUnitThatFailsToStartIsFailedUntilResetFailed() {
    host.systemd().setBehaviour("containerd.service", UnitBehaviour.failsToStart());
    assertThat(systemd.start("containerd.service", T)).isEqualTo(JobResult.FAILED);
    assertThat(systemd.status("containerd.service").isFailed()).isTrue();
    systemd.resetFailed("containerd.service");
    assertThat(systemd.status("containerd.service").active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void inOneStartAllARequiredUnitThatFailedIsNotStartedAgainForTheUnitRequiringIt()
      throws IOException {
    unit(
        "kubelet.service",
        "[Unit]\nRequires=containerd.service\nAfter=containerd.service\n[Service]\n"
            + "ExecStart=/opt/node/current/bin/kubelet\n");
    host.systemd().setBehaviour("containerd.service", UnitBehaviour.failsToStart());

    assertThat(systemd.startAll(List.of("containerd.service", "kubelet.service"), T))
        .containsExactly(JobResult.FAILED, JobResult.DEPENDENCY);

    assertThat(host.systemd().history())
        .extracting(e -> e.toString())
        .containsExactly("containerd.service failed", "kubelet.service dependency-failed");
    assertThat(systemd.status("kubelet.service").isActive()).isFalse();
  }

  @Test
  void aUnitThatFailsLaterIsSeenFailingWhileWaiting() {
    host.systemd()
        .setBehaviour(
            "containerd.service", UnitBehaviour.activeThenFailsAfter(Duration.ofSeconds(5)));
    assertThat(systemd.start("containerd.service", T)).isEqualTo(JobResult.DONE);
    UnitStatus s = systemd.awaitState(
        "containerd.service", Set.of(ActiveState.FAILED), Duration.ofSeconds(60));
    assertThat(s.isFailed()).isTrue();
    assertThat(host.clock().elapsed()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));
  }

  @Test
  void aUnitThatHangsTimesTheStartJobOut() {
    host.systemd().setBehaviour("containerd.service", UnitBehaviour.hangsActivating());
    assertThat(systemd.start("containerd.service", T)).isEqualTo(JobResult.WAIT_TIMEOUT);
    assertThat(systemd
            .awaitState("containerd.service", Set.of(ActiveState.ACTIVE), T)
            .active())
        .isEqualTo(ActiveState.ACTIVATING);
    assertThat(host.clock().elapsed()).isEqualTo(T.multipliedBy(2));
  }

  @Test
  void aLoadedUnitKeepsItsDefinitionUntilADaemonReload() throws IOException {
    systemd.start("containerd.service", T);
    unit("containerd.service", "[Service]\nType=exec\nExecStart=/missing/containerd\n");
    assertThat(systemd.restart("containerd.service", T)).isEqualTo(JobResult.DONE);
    systemd.daemonReload();
    assertThat(systemd.restart("containerd.service", T)).isEqualTo(JobResult.FAILED);
  }

  @Test
  void anInactiveUnitIsUnloadedAndReadAgainOnItsNextStart() throws IOException {
    systemd.start("containerd.service", T);
    systemd.stop("containerd.service", T);
    unit("containerd.service", "[Service]\nType=exec\nExecStart=/missing/containerd\n");
    assertThat(systemd.start("containerd.service", T)).isEqualTo(JobResult.FAILED);
  }

  @Test
  void enableCreatesTheWantsLinkAndACrashForgetsEveryUnit() {
    systemd.enable(List.of("containerd.service"));
    assertThat(host.systemd().isEnabled("containerd.service", "multi-user.target"))
        .isTrue();
    systemd.start("containerd.service", T);
    host.crash();
    assertThat(systemd.status("containerd.service").active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(host.processes().all()).isEmpty();
    host.systemd().bootEnabledUnits();
    assertThat(systemd.status("containerd.service").active()).isEqualTo(ActiveState.ACTIVE);
    systemd.disable(List.of("containerd.service"));
    assertThat(host.systemd().isEnabled("containerd.service", "multi-user.target"))
        .isFalse();
  }

  @Test
  void killingTheMainProcessFailsTheUnit() throws IOException {
    systemd.start("containerd.service", T);
    long pid = systemd.status("containerd.service").mainPid();
    assertThat(host.ports().processes().signal(pid, 9)).isTrue();
    assertThat(systemd.status("containerd.service").result()).isEqualTo("signal");
    assertThat(systemd.status("containerd.service").isFailed()).isTrue();
  }

  @Test
  void healthProbesFollowTheUnitsUnlessATestSaysOtherwise() {
    var probes = host.ports().probes();
    java.net.URI healthz = java.net.URI.create("http://127.0.0.1:10248/healthz");
    assertThat(probes.httpOk(healthz, T)).isFalse();
    systemd.start("kubelet.service", T);
    assertThat(probes.httpOk(healthz, T)).isTrue();
    host.probes().setEveryHttp(dev.noneops.testkit.health.SimHealthProbes.Answer.HANGS);
    Duration before = host.clock().elapsed();
    assertThat(probes.httpOk(healthz, T)).isFalse();
    assertThat(host.clock().elapsed().minus(before)).isEqualTo(T);
  }

  @Test
  void theJournalShowsTheOrderOfRestarts() {
    systemd.start("kubelet.service", T);
    host.journal().clear();
    systemd.restart("containerd.service", T);
    systemd.restart("kubelet.service", T);
    assertThat(host.journal().calls(Calls.to("systemd.restart")))
        .extracting(c -> c.args().get(0))
        .containsExactly("containerd.service", "kubelet.service");
  }
}
