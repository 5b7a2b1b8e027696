package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.ManagerState;
import dev.noneops.ports.systemd.Subscription;
import dev.noneops.ports.systemd.Systemd;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.UnitStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link Systemd} contract. A subclass supplies the port, a way to write unit files into the
 * manager's unit directory, a command line that runs until killed, and a way to see install
 * links. Every unit a test installs is stopped, reset and removed afterwards.
 */
public abstract class SystemdContract {
  /** How long a job may take. */
  protected static final Duration JOB = Duration.ofSeconds(30);

  private final List<String> installed = new ArrayList<>();

  protected abstract Systemd systemd();

  /** Writes (or overwrites) a unit file in the manager's unit directory, without reloading. */
  protected abstract void writeUnitFile(String name, String content) throws Exception;

  /** Removes a unit file (and its install links, if any) from the unit directory. */
  protected abstract void deleteUnitFile(String name) throws Exception;

  /** Removes only the unit file itself, leaving any install links to it dangling. */
  protected abstract void deleteUnitFileKeepingLinks(String name) throws Exception;

  /** An {@code ExecStart=} command line that keeps running until killed, e.g. {@code /bin/sleep infinity}. */
  protected abstract String longRunningCommand();

  /** The absolute path of a unit file written by {@link #writeUnitFile}, as the manager sees it. */
  protected abstract String unitFilePath(String name);

  /** Whether {@code <unit dir>/<target>.wants/<unit>} exists. */
  protected abstract boolean wantsLinkExists(String target, String unit) throws Exception;

  /**
   * Has the system bus the port talks over go away and come back ({@code systemctl restart
   * dbus.service}), returning once the bus is back: the port's connection is broken, and the port
   * must find the bus again on its own.
   */
  protected abstract void restartBus() throws Exception;

  /** A unit name for this suite; subclasses may make it unique per run. */
  protected String unitName(String stem) {
    return "noneops-contract-" + stem + ".service";
  }

  /** An absolute program path that does not exist. */
  protected String missingProgram() {
    return "/nonexistent/noneops-contract-program";
  }

  private String install(String stem, String content) throws Exception {
    String name = unitName(stem);
    writeUnitFile(name, content);
    if (!installed.contains(name)) {
      installed.add(name);
    }
    return name;
  }

  private String sleeper(String stem, String extraUnitSection) throws Exception {
    return install(
        stem,
        "[Unit]\nDescription=contract " + stem + "\n" + extraUnitSection
            + "[Service]\nType=exec\nExecStart=" + longRunningCommand()
            + "\n[Install]\nWantedBy=multi-user.target\n");
  }

  private String broken(String stem) throws Exception {
    return install(
        stem,
        "[Unit]\nDescription=contract " + stem + "\n[Service]\nType=exec\nExecStart="
            + missingProgram() + "\n");
  }

  @AfterEach
  void removeInstalledUnits() throws Exception {
    for (String name : installed) {
      try {
        systemd().stop(name, JOB);
      } catch (SystemdException e) {
        // never loaded: nothing to stop
      }
      try {
        systemd().resetFailed(name);
      } catch (SystemdException e) {
        // not loaded or not failed
      }
      deleteUnitFile(name);
    }
    if (!installed.isEmpty()) {
      systemd().daemonReload();
    }
  }

  @Test
  void aStartedUnitRunsAMainProcessUntilStopped() throws Exception {
    String unit = sleeper("simple", "");
    systemd().daemonReload();
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.DONE);
    UnitStatus running = systemd().status(unit);
    assertThat(running.load()).isEqualTo(LoadState.LOADED);
    assertThat(running.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(running.sub()).isEqualTo("running");
    assertThat(running.mainPid()).isPositive();
    assertThat(running.fragmentPath()).endsWith("/" + unit);
    assertThat(systemd().stop(unit, JOB)).isEqualTo(JobResult.DONE);
    UnitStatus stopped = systemd().status(unit);
    assertThat(stopped.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(stopped.mainPid()).isZero();
  }

  @Test
  void aUnitReportsWhenItLastEnteredTheActiveStateOnceItDid() throws Exception {
    String unit = sleeper("entered", "");
    systemd().daemonReload();
    assertThat(systemd().status(unit).activeEnteredAt()).as("never active").isEmpty();
    systemd().start(unit, JOB);
    Instant entered = systemd().status(unit).activeEnteredAt().orElseThrow();
    systemd().start(unit, JOB);
    assertThat(systemd().status(unit).activeEnteredAt())
        .as("starting an active unit does not move it")
        .contains(entered);
    systemd().restart(unit, JOB);
    assertThat(systemd().status(unit).activeEnteredAt().orElseThrow()).isAfterOrEqualTo(entered);
  }

  @Test
  void theManagerReportsItsVersionAndTheSystemsState() {
    ManagerState manager = systemd().manager();
    assertThat(manager.major()).isGreaterThanOrEqualTo(240);
    assertThat(manager.version()).startsWith(Integer.toString(manager.major()));
    assertThat(manager.systemState())
        .isIn("initializing", "starting", "running", "degraded", "maintenance", "stopping");
  }

  @Test
  void startingAnActiveUnitIsDoneAndKeepsItsProcess() throws Exception {
    String unit = sleeper("idempotent", "");
    systemd().start(unit, JOB);
    long pid = systemd().status(unit).mainPid();
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().status(unit).mainPid()).isEqualTo(pid);
  }

  @Test
  void aRestartRunsANewMainProcess() throws Exception {
    String unit = sleeper("restart", "");
    systemd().start(unit, JOB);
    long before = systemd().status(unit).mainPid();
    assertThat(systemd().restart(unit, JOB)).isEqualTo(JobResult.DONE);
    UnitStatus after = systemd().status(unit);
    assertThat(after.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(after.mainPid()).isPositive().isNotEqualTo(before);
  }

  @Test
  void anUnknownUnitIsReportedNotFound() {
    UnitStatus s = systemd().status(unitName("does-not-exist"));
    assertThat(s.load()).isEqualTo(LoadState.NOT_FOUND);
    assertThat(s.active()).isEqualTo(ActiveState.INACTIVE);
    assertThat(s.mainPid()).isZero();
  }

  @Test
  void startingOrStoppingAnUnknownUnitIsNoSuchUnit() {
    String unit = unitName("does-not-exist");
    assertThatThrownBy(() -> systemd().start(unit, JOB))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
    assertThatThrownBy(() -> systemd().stop(unit, JOB))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void aUnitWhoseProgramIsMissingFailsUntilResetFailed() throws Exception {
    String unit = broken("broken");
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.FAILED);
    UnitStatus failed = systemd().status(unit);
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.result()).isNotEqualTo("success");
    systemd().resetFailed(unit);
    UnitStatus reset = systemd().status(unit);
    assertThat(reset.active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void aRunningUnitKeepsItsDefinitionUntilDaemonReload() throws Exception {
    String unit = sleeper("reload", "");
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.DONE);
    broken("reload");
    assertThat(systemd().restart(unit, JOB))
        .as("restart with the definition loaded before")
        .isEqualTo(JobResult.DONE);
    systemd().daemonReload();
    assertThat(systemd().restart(unit, JOB))
        .as("restart after daemon-reload")
        .isEqualTo(JobResult.FAILED);
  }

  @Test
  void awaitStateReturnsOnceTheStateIsReached() throws Exception {
    String unit = sleeper("await", "");
    systemd().start(unit, JOB);
    assertThat(systemd().awaitState(unit, Set.of(ActiveState.ACTIVE), JOB).active())
        .isEqualTo(ActiveState.ACTIVE);
  }

  @Test
  void awaitStateGivesUpAfterTheTimeoutWithTheLastStateSeen() throws Exception {
    String unit = sleeper("await-timeout", "");
    systemd().daemonReload();
    UnitStatus s = systemd().awaitState(unit, Set.of(ActiveState.ACTIVE), Duration.ofMillis(500));
    assertThat(s.active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void aWatchIsToldOfItsUnitsStateChangesUntilItIsClosed() throws Exception {
    String unit = sleeper("watched", "");
    String other = sleeper("unwatched", "");
    systemd().daemonReload();
    List<UnitStatus> seen = new CopyOnWriteArrayList<>();
    try (Subscription watch = systemd().watch(Set.of(unit), seen::add)) {
      systemd().start(other, JOB);
      systemd().start(unit, JOB);
      systemd().kill(unit, false, 9);
      systemd().awaitState(unit, Set.of(ActiveState.FAILED), JOB);
      awaitSeen(seen, ActiveState.FAILED);
    }
    assertThat(seen).extracting(UnitStatus::unit).containsOnly(unit);
    assertThat(seen)
        .extracting(UnitStatus::active)
        .containsSubsequence(ActiveState.ACTIVE, ActiveState.FAILED);
    assertThat(seen.get(seen.size() - 1).isFailed()).isTrue();
    int before = seen.size();
    systemd().restart(unit, JOB);
    Thread.sleep(SIGNAL_SETTLE.toMillis());
    assertThat(seen).as("nothing after the watch was closed").hasSize(before);
  }

  @Test
  void aWatchCarriesOnThroughADaemonReload() throws Exception {
    String unit = sleeper("watched-reload", "");
    List<UnitStatus> seen = new CopyOnWriteArrayList<>();
    try (Subscription watch = systemd().watch(Set.of(unit), seen::add)) {
      systemd().daemonReload();
      systemd().start(unit, JOB);
      awaitSeen(seen, ActiveState.ACTIVE);
      systemd().daemonReload();
      systemd().kill(unit, false, 9);
      awaitSeen(seen, ActiveState.FAILED);
    }
  }

  @Test
  void aWatchAndTheCallsCarryOnOnceTheBusCameBack() throws Exception {
    String unit = sleeper("watched-bus", "");
    systemd().daemonReload();
    systemd().start(unit, JOB);
    List<UnitStatus> seen = new CopyOnWriteArrayList<>();
    try (Subscription watch = systemd().watch(Set.of(unit), seen::add)) {
      restartBus();
      awaitReachable();
      systemd().kill(unit, false, 9);
      awaitSeen(seen, ActiveState.FAILED);
    }
    assertThat(systemd().restart(unit, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().status(unit).active()).isEqualTo(ActiveState.ACTIVE);
  }

  /** How long a port may take to find the bus again once it is back. */
  protected static final Duration RECONNECT = Duration.ofSeconds(10);

  private void awaitReachable() throws InterruptedException {
    Instant deadline = Instant.now().plus(RECONNECT);
    while (true) {
      try {
        systemd().manager();
        return;
      } catch (SystemdException unreachable) {
        if (unreachable.kind() != SystemdException.Kind.UNREACHABLE
            || !Instant.now().isBefore(deadline)) {
          throw new AssertionError(
              "systemd is not reachable " + RECONNECT + " after the bus came back", unreachable);
        }
      }
      Thread.sleep(50);
    }
  }

  /** How long signals still in flight may take to arrive. */
  private static final Duration SIGNAL_SETTLE = Duration.ofMillis(500);

  private static void awaitSeen(List<UnitStatus> seen, ActiveState state)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(JOB);
    while (seen.stream().noneMatch(s -> s.active() == state) && Instant.now().isBefore(deadline)) {
      Thread.sleep(20);
    }
    assertThat(seen).extracting(UnitStatus::active).contains(state);
  }

  @Test
  void startingAUnitStartsWhatItWants() throws Exception {
    String wanted = sleeper("wanted", "");
    String wanting = sleeper("wanting", "Wants=" + wanted + "\nAfter=" + wanted + "\n");
    assertThat(systemd().start(wanting, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().status(wanted).active()).isEqualTo(ActiveState.ACTIVE);
  }

  @Test
  void startAllStartsEveryUnitInOneRequestAndStopAllStopsThemAll() throws Exception {
    String first = sleeper("all-first", "");
    String second = sleeper("all-second", "After=" + first + "\n");
    String third = sleeper("all-third", "");
    systemd().daemonReload();
    assertThat(systemd().startAll(List.of(second, first, third), JOB))
        .containsExactly(JobResult.DONE, JobResult.DONE, JobResult.DONE);
    for (String unit : List.of(first, second, third)) {
      assertThat(systemd().status(unit).active()).as(unit).isEqualTo(ActiveState.ACTIVE);
    }
    assertThat(systemd().stopAll(List.of(second, first, third), JOB))
        .containsExactly(JobResult.DONE, JobResult.DONE, JobResult.DONE);
    for (String unit : List.of(first, second, third)) {
      assertThat(systemd().status(unit).active()).as(unit).isEqualTo(ActiveState.INACTIVE);
    }
  }

  @Test
  void startAllReportsEachUnitsOwnResult() throws Exception {
    String good = sleeper("all-good", "");
    String bad = broken("all-bad");
    systemd().daemonReload();
    assertThat(systemd().startAll(List.of(good, bad), JOB))
        .containsExactly(JobResult.DONE, JobResult.FAILED);
    assertThat(systemd().status(good).isActive()).isTrue();
  }

  @Test
  void startAllOrStopAllWithAnUnknownUnitIsNoSuchUnit() {
    String unknown = unitName("all-unknown");
    assertThatThrownBy(() -> systemd().startAll(List.of(unknown), JOB))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
    assertThatThrownBy(() -> systemd().stopAll(List.of(unknown), JOB))
        .isInstanceOfSatisfying(
            SystemdException.class,
            e -> assertThat(e.kind()).isEqualTo(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void aRequiredUnitThatFailsFailsTheJobWithDependency() throws Exception {
    String required = broken("required");
    String requiring = sleeper("requiring", "Requires=" + required + "\nAfter=" + required + "\n");
    assertThat(systemd().start(requiring, JOB)).isEqualTo(JobResult.DEPENDENCY);
    assertThat(systemd().status(requiring).isActive()).isFalse();
  }

  @Test
  void startAllDoesNotStartAUnitWhoseRequiredUnitFailsInTheSameRequest() throws Exception {
    String required = broken("all-required");
    String requiring =
        sleeper("all-requiring", "Requires=" + required + "\nAfter=" + required + "\n");
    systemd().daemonReload();
    assertThat(systemd().startAll(List.of(required, requiring), JOB))
        .containsExactly(JobResult.FAILED, JobResult.DEPENDENCY);
    assertThat(systemd().status(requiring).active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void restartingARequiredUnitRestartsTheActiveUnitRequiringIt() throws Exception {
    String required = sleeper("restart-required", "");
    String requiring =
        sleeper("restart-requiring", "Requires=" + required + "\nAfter=" + required + "\n");
    assertThat(systemd().start(requiring, JOB)).isEqualTo(JobResult.DONE);
    long before = systemd().status(requiring).mainPid();

    assertThat(systemd().restart(required, JOB)).isEqualTo(JobResult.DONE);

    UnitStatus after = systemd().awaitState(requiring, Set.of(ActiveState.ACTIVE), JOB);
    assertThat(after.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(after.mainPid()).as("a new main process").isNotEqualTo(before).isPositive();
  }

  @Test
  void restartingARequiredUnitLeavesAStoppedUnitRequiringItStopped() throws Exception {
    String required = sleeper("restart-required-alone", "");
    String requiring =
        sleeper("restart-requiring-stopped", "Requires=" + required + "\nAfter=" + required + "\n");
    assertThat(systemd().start(requiring, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().stop(requiring, JOB)).isEqualTo(JobResult.DONE);

    assertThat(systemd().restart(required, JOB)).isEqualTo(JobResult.DONE);

    assertThat(systemd().status(required).isActive()).isTrue();
    assertThat(systemd().status(requiring).active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void enableCreatesTheInstallLinkAndDisableRemovesIt() throws Exception {
    String unit = sleeper("enable", "");
    systemd().enable(List.of(unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isTrue();
    systemd().disable(List.of(unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
  }

  @Test
  void enablingAnEnabledUnitAgainKeepsItsLinkAndDoesNotReload() throws Exception {
    String unit = sleeper("enable-twice", "");
    systemd().enable(List.of(unit));
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().stop(unit, JOB)).isEqualTo(JobResult.DONE);
    writeUnitFile(
        unit,
        "[Unit]\nDescription=contract enable-twice, edited\n[Service]\nType=exec\nExecStart="
            + missingProgram() + "\n[Install]\nWantedBy=multi-user.target\n");

    systemd().enable(List.of(unit));

    assertThat(wantsLinkExists("multi-user.target", unit)).isTrue();
    assertThat(systemd().start(unit, JOB))
        .as("the loaded definition still runs: no reload read the edited file")
        .isEqualTo(JobResult.DONE);
    assertThat(systemd().stop(unit, JOB)).isEqualTo(JobResult.DONE);
    systemd().daemonReload();
    assertThat(systemd().start(unit, JOB))
        .as("after a reload the edited file is in force")
        .isNotEqualTo(JobResult.DONE);
  }

  @Test
  void killingTheMainProcessLeavesTheUnitFailed() throws Exception {
    String unit = sleeper("kill", "");
    systemd().start(unit, JOB);
    systemd().kill(unit, false, 9);
    UnitStatus s = systemd().awaitState(unit, Set.of(ActiveState.FAILED), JOB);
    assertThat(s.isFailed()).isTrue();
    assertThat(s.result()).isEqualTo("signal");
  }

  private static Consumer<Throwable> kind(SystemdException.Kind kind) {
    return e -> assertThat(e)
        .isInstanceOfSatisfying(
            SystemdException.class, se -> assertThat(se.kind()).isEqualTo(kind));
  }

  @Test
  void disablingAUnitWithoutAUnitFileIsNoSuchUnit() {
    assertThatThrownBy(() -> systemd().disable(List.of(unitName("never-written"))))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void disablingAUnitWhoseFileWasRemovedRemovesItsDanglingLinks() throws Exception {
    String unit = sleeper("file-gone", "");
    systemd().enable(List.of(unit));
    deleteUnitFileKeepingLinks(unit);
    systemd().disable(List.of(unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
    assertThatThrownBy(() -> systemd().disable(List.of(unit)))
        .as("once no link is left, the missing file is reported")
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void disablingAnEnabledUnitBesideAMissingOneDisablesIt() throws Exception {
    String unit = sleeper("disable-beside-missing", "");
    systemd().enable(List.of(unit));
    systemd().disable(List.of(unitName("never-written"), unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
  }

  @Test
  void disablingADisabledUnitBesideAMissingOneIsNoSuchUnit() throws Exception {
    String unit = sleeper("disabled-beside-missing", "");
    systemd().daemonReload();
    assertThatThrownBy(() -> systemd().disable(List.of(unit, unitName("never-written"))))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void disablingADisabledUnitIsANoOp() throws Exception {
    String unit = sleeper("never-enabled", "");
    systemd().disable(List.of(unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
  }

  @Test
  void enablingAListWithAMissingUnitEnablesNone() throws Exception {
    String unit = sleeper("enable-beside-missing", "");
    assertThatThrownBy(() -> systemd().enable(List.of(unit, unitName("never-written"))))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "bad name.service",
        "../x.service",
        "",
        "no-suffix",
        "kubelet.servicex",
        "a/b.service",
        ".hidden.service"
      })
  void aSyntacticallyBadUnitNameIsRejectedBeforeAnyCall(String bad) {
    assertThatThrownBy(() -> systemd().status(bad)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().start(bad, JOB))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().stop(bad, JOB)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().restart(bad, JOB))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().awaitState(bad, Set.of(ActiveState.ACTIVE), JOB))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().enable(List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().disable(List.of(bad)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().resetFailed(bad))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().kill(bad, true, 15))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNameOverTwoHundredFiftyFiveCharactersIsRejected() {
    String tooLong = "a".repeat(248) + ".service";
    assertThatThrownBy(() -> systemd().status(tooLong))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aBadSignalOrNoWantedStateIsRejectedBeforeAnyCall() throws Exception {
    String unit = sleeper("bad-arguments", "");
    assertThatThrownBy(() -> systemd().kill(unit, true, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().kill(unit, false, 65))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> systemd().awaitState(unit, Set.of(), JOB))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void killingAllProcessesOfAUnitThatHasNoneSucceedsButItsMainProcessIsOther() throws Exception {
    String unit = sleeper("kill-none", "");
    systemd().start(unit, JOB);
    systemd().kill(unit, false, 9);
    assertThat(systemd().awaitState(unit, Set.of(ActiveState.FAILED), JOB).isFailed())
        .isTrue();
    systemd().kill(unit, true, 15);
    assertThatThrownBy(() -> systemd().kill(unit, false, 15))
        .satisfies(kind(SystemdException.Kind.OTHER));
    assertThat(systemd().status(unit).isFailed())
        .as("signalling nothing changes nothing")
        .isTrue();
  }

  @Test
  void killingAnUnknownUnitIsNoSuchUnit() {
    assertThatThrownBy(() -> systemd().kill(unitName("does-not-exist"), true, 15))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void resettingAnUnknownUnitIsNoSuchUnit() {
    assertThatThrownBy(() -> systemd().resetFailed(unitName("does-not-exist")))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void aSimpleServiceWhoseProgramIsMissingIsStartedThenFails() throws Exception {
    String unit = install(
        "simple-missing",
        "[Unit]\nDescription=contract simple-missing\n[Service]\nType=simple\nExecStart="
            + missingProgram() + "\n");
    assertThat(systemd().start(unit, JOB))
        .as("a simple service's start job ends once it forked")
        .isEqualTo(JobResult.DONE);
    UnitStatus failed = systemd().awaitState(unit, Set.of(ActiveState.FAILED), JOB);
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.result()).isEqualTo("exit-code");
    assertThat(failed.mainPid()).isZero();
  }

  @Test
  void stoppingAnInactiveUnitIsDoneAndLeavesItInactive() throws Exception {
    String unit = sleeper("stop-inactive", "");
    systemd().daemonReload();
    assertThat(systemd().stop(unit, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().status(unit).active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void stoppingAFailedUnitIsDoneAndLeavesItFailed() throws Exception {
    String unit = broken("stop-failed");
    assertThat(systemd().start(unit, JOB)).isEqualTo(JobResult.FAILED);
    assertThat(systemd().stop(unit, JOB)).isEqualTo(JobResult.DONE);
    UnitStatus after = systemd().status(unit);
    assertThat(after.isFailed()).isTrue();
    assertThat(after.result()).isEqualTo("exit-code");
  }

  @Test
  void restartingAFailedUnitStartsItAgain() throws Exception {
    String unit = sleeper("restart-failed", "");
    systemd().start(unit, JOB);
    long first = systemd().status(unit).mainPid();
    systemd().kill(unit, false, 9);
    assertThat(systemd().awaitState(unit, Set.of(ActiveState.FAILED), JOB).result())
        .isEqualTo("signal");
    assertThat(systemd().restart(unit, JOB)).isEqualTo(JobResult.DONE);
    UnitStatus after = systemd().status(unit);
    assertThat(after.active()).isEqualTo(ActiveState.ACTIVE);
    assertThat(after.result()).isEqualTo("success");
    assertThat(after.mainPid()).isPositive().isNotEqualTo(first);
  }

  @Test
  void restartingAnInactiveUnitStartsIt() throws Exception {
    String unit = sleeper("restart-inactive", "");
    systemd().daemonReload();
    assertThat(systemd().restart(unit, JOB)).isEqualTo(JobResult.DONE);
    assertThat(systemd().status(unit).active()).isEqualTo(ActiveState.ACTIVE);
  }

  @Test
  void restartingAnUnknownUnitIsNoSuchUnit() {
    assertThatThrownBy(() -> systemd().restart(unitName("does-not-exist"), JOB))
        .satisfies(kind(SystemdException.Kind.NO_SUCH_UNIT));
  }

  @Test
  void awaitingAnUnknownUnitReportsItNotFoundInactive() {
    String unit = unitName("does-not-exist");
    UnitStatus gaveUp =
        systemd().awaitState(unit, Set.of(ActiveState.ACTIVE), Duration.ofMillis(300));
    assertThat(gaveUp.load()).isEqualTo(LoadState.NOT_FOUND);
    assertThat(gaveUp.active()).isEqualTo(ActiveState.INACTIVE);
    UnitStatus reached = systemd().awaitState(unit, Set.of(ActiveState.INACTIVE), JOB);
    assertThat(reached.load()).isEqualTo(LoadState.NOT_FOUND);
    assertThat(reached.active()).isEqualTo(ActiveState.INACTIVE);
  }

  @Test
  void enableAcceptsTheAbsolutePathOfAUnitFileButDisableOnlyItsName() throws Exception {
    String unit = sleeper("by-path", "");
    systemd().enable(List.of(unitFilePath(unit)));
    assertThat(wantsLinkExists("multi-user.target", unit)).isTrue();
    assertThatThrownBy(() -> systemd().disable(List.of(unitFilePath(unit))))
        .satisfies(kind(SystemdException.Kind.OTHER));
    assertThat(wantsLinkExists("multi-user.target", unit))
        .as("a refused disable changes nothing")
        .isTrue();
    systemd().disable(List.of(unit));
    assertThat(wantsLinkExists("multi-user.target", unit)).isFalse();
  }
}
