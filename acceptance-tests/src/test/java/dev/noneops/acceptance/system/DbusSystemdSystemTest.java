package dev.noneops.acceptance.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.DbusSystemd;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DbusSystemd} driving a real systemd 252 over real D-Bus: small unit files installed in a
 * {@link SystemdSandbox}, started, stopped, restarted, killed, enabled and disabled, with the
 * states and main PIDs checked against what systemd itself and the sandbox's /proc report.
 */
class DbusSystemdSystemTest {
  @RegisterExtension
  static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("dbus-system");

  private static final Duration JOB_TIMEOUT = Duration.ofSeconds(30);

  private static DbusSystemd systemd;

  @BeforeAll
  static void connect() throws IOException {
    SystemdSandbox sandbox = SANDBOX.sandbox();
    install("noneops-sleeper.service", """
        [Unit]
        Description=noneops system test: a long-running simple service
        [Service]
        ExecStart=/bin/sleep infinity
        [Install]
        WantedBy=multi-user.target
        """);
    install("noneops-notify.service", """
        [Unit]
        Description=noneops system test: a notify service that is ready after a while
        [Service]
        Type=notify
        NotifyAccess=all
        ExecStart=/bin/sh -c 'sleep 1; systemd-notify --ready; exec sleep infinity'
        """);
    install("noneops-never-ready.service", """
        [Unit]
        Description=noneops system test: a notify service that never becomes ready
        [Service]
        Type=notify
        TimeoutStartSec=120
        ExecStart=/bin/sleep infinity
        """);
    install("noneops-fails.service", """
        [Unit]
        Description=noneops system test: a oneshot that fails
        [Service]
        Type=oneshot
        ExecStart=/bin/false
        """);
    systemd = DbusSystemd.connect(sandbox.busAddress());
    systemd.daemonReload();
  }

  @AfterAll
  static void disconnect() {
    if (systemd != null) {
      systemd.close();
    }
  }

  private static void install(String unit, String content) throws IOException {
    Files.writeString(SANDBOX.sandbox().path("/etc/systemd/system/" + unit), content);
  }

  @Test
  void aReloadedUnitFileIsLoadedButInactive() {
    UnitStatus status = systemd.status("noneops-sleeper.service");

    assertThat(status.load()).isEqualTo(LoadState.LOADED);
    assertThat(status.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(status.sub()).isEqualTo("dead");
    assertThat(status.mainPid()).isZero();
    assertThat(status.fragmentPath()).isEqualTo("/etc/systemd/system/noneops-sleeper.service");
  }

  @Test
  void startRestartAndStopMoveTheServiceAndItsMainProcess() {
    assertThat(systemd.start("noneops-sleeper.service", JOB_TIMEOUT)).isEqualTo(JobResult.DONE);
    UnitStatus running = systemd.status("noneops-sleeper.service");
    assertThat(running.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(running.sub()).isEqualTo("running");
    assertThat(running.mainPid()).isPositive();
    assertThat(commandLineOf(running.mainPid())).isEqualTo("/bin/sleep infinity");
    assertThat(systemctlShow("noneops-sleeper.service", "MainPID"))
        .isEqualTo(Long.toString(running.mainPid()));

    assertThat(systemd.restart("noneops-sleeper.service", JOB_TIMEOUT)).isEqualTo(JobResult.DONE);
    UnitStatus restarted = systemd.status("noneops-sleeper.service");
    assertThat(restarted.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(restarted.mainPid()).isPositive().isNotEqualTo(running.mainPid());
    assertThat(processExists(running.mainPid()))
        .as("the first main process is gone")
        .isFalse();

    assertThat(systemd.stop("noneops-sleeper.service", JOB_TIMEOUT)).isEqualTo(JobResult.DONE);
    UnitStatus stopped = systemd.status("noneops-sleeper.service");
    assertThat(stopped.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(stopped.sub()).isEqualTo("dead");
    assertThat(stopped.mainPid()).isZero();
    assertThat(processExists(restarted.mainPid())).isFalse();
  }

  @Test
  void aNotifyServiceIsDoneOnlyOnceItReportedReady() {
    long started = System.nanoTime();

    JobResult result = systemd.start("noneops-notify.service", JOB_TIMEOUT);

    assertThat(result).isEqualTo(JobResult.DONE);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    assertThat(systemd.status("noneops-notify.service").sub()).isEqualTo("running");
    systemd.stop("noneops-notify.service", JOB_TIMEOUT);
  }

  @Test
  void aJobStillRunningAtTheDeadlineIsAWaitTimeoutAndKeepsRunning() {
    JobResult result = systemd.start("noneops-never-ready.service", Duration.ofMillis(500));

    assertThat(result).isEqualTo(JobResult.WAIT_TIMEOUT);
    assertThat(systemd.status("noneops-never-ready.service").active())
        .isEqualTo(ActiveState.ACTIVATING);
    assertThat(systemd.stop("noneops-never-ready.service", JOB_TIMEOUT)).isEqualTo(JobResult.DONE);
  }

  @Test
  void aFailingServiceReportsFailedUntilItsFailureIsReset() {
    assertThat(systemd.start("noneops-fails.service", JOB_TIMEOUT)).isEqualTo(JobResult.FAILED);
    UnitStatus failed = systemd.status("noneops-fails.service");
    assertThat(failed.active()).isEqualTo(ActiveState.FAILED);
    assertThat(failed.result()).isEqualTo("exit-code");

    systemd.resetFailed("noneops-fails.service");

    UnitStatus reset = systemd.status("noneops-fails.service");
    assertThat(reset.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(reset.result()).isEqualTo("success");
  }

  @Test
  void killingTheMainProcessIsSeenByAwaitState() {
    systemd.start("noneops-sleeper.service", JOB_TIMEOUT);
    long mainPid = systemd.status("noneops-sleeper.service").mainPid();

    systemd.kill("noneops-sleeper.service", false, 9);
    UnitStatus afterKill = systemd.awaitState(
        "noneops-sleeper.service", Set.of(ActiveState.FAILED), Duration.ofSeconds(10));

    assertThat(afterKill.active()).isEqualTo(ActiveState.FAILED);
    assertThat(afterKill.result()).isEqualTo("signal");
    assertThat(processExists(mainPid)).isFalse();
    systemd.resetFailed("noneops-sleeper.service");
  }

  @Test
  void resetFailedAndKillAllOfAUnitSystemdHasUnloadedAreNoOps() throws InterruptedException {
    systemd.start("noneops-sleeper.service", JOB_TIMEOUT);
    systemd.stop("noneops-sleeper.service", JOB_TIMEOUT);
    awaitUnloaded("noneops-sleeper.service");

    systemd.resetFailed("noneops-sleeper.service");
    systemd.kill("noneops-sleeper.service", true, 15);
    assertThatThrownBy(() -> systemd.kill("noneops-sleeper.service", false, 15))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.OTHER));
    assertThatThrownBy(() -> systemd.resetFailed("noneops-absent.service"))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void enableAndDisableManageTheInstallSymlinks() {
    Path wants = SANDBOX
        .sandbox()
        .path("/etc/systemd/system/multi-user.target.wants/noneops-sleeper.service");

    systemd.enable(List.of("noneops-sleeper.service"));
    assertThat(wants).isSymbolicLink();
    assertThat(SANDBOX
            .sandbox()
            .systemctl("is-enabled", "noneops-sleeper.service")
            .stdout()
            .strip())
        .isEqualTo("enabled");

    systemd.disable(List.of("noneops-sleeper.service"));
    assertThat(wants).doesNotExist();
    assertThat(SANDBOX
            .sandbox()
            .systemctl("is-enabled", "noneops-sleeper.service")
            .stdout()
            .strip())
        .isEqualTo("disabled");
  }

  @Test
  void anUnknownUnitIsNotFoundForStatusAndNoSuchUnitForJobs() {
    assertThat(systemd.status("noneops-absent.service").load()).isEqualTo(LoadState.NOT_FOUND);

    assertThatThrownBy(() -> systemd.start("noneops-absent.service", JOB_TIMEOUT))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
    assertThatThrownBy(() -> systemd.stop("noneops-absent.service", JOB_TIMEOUT))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
    assertThatThrownBy(() -> systemd.enable(List.of("noneops-absent.service")))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
  }

  /** Waits until systemd dropped the inactive unit from memory, as it does with unreferenced units. */
  private static void awaitUnloaded(String unit) throws InterruptedException {
    for (int attempt = 0; attempt < 100; attempt++) {
      String listed = SANDBOX
          .sandbox()
          .systemctl("list-units", "--all", "--plain", "--no-legend", unit)
          .stdout();
      if (listed.isBlank()) {
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError(unit + " is still loaded");
  }

  private static String commandLineOf(long pid) {
    return SANDBOX
        .sandbox()
        .exec("sh", "-c", "tr '\\0' ' ' < /proc/" + pid + "/cmdline")
        .stdout()
        .strip();
  }

  private static boolean processExists(long pid) {
    return SANDBOX.sandbox().exec("test", "-d", "/proc/" + pid).succeeded();
  }

  private static String systemctlShow(String unit, String property) {
    return SANDBOX
        .sandbox()
        .systemctl("show", "--value", "-p", property, unit)
        .stdout()
        .strip();
  }
}
