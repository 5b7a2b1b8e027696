package dev.noneops.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.systemd.ActiveState;
import dev.noneops.ports.systemd.JobResult;
import dev.noneops.ports.systemd.LoadState;
import dev.noneops.ports.systemd.SystemdException;
import dev.noneops.ports.systemd.SystemdException.Kind;
import dev.noneops.ports.systemd.UnitStatus;
import dev.noneops.systemd.FakeSystemd.Emission;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DbusSystemd} against a scripted systemd on a private Debian dbus-daemon. */
class DbusSystemdTest {
  private static final Duration GENEROUS = Duration.ofSeconds(10);
  private static final String FORBIDDEN = "forbidden.service";

  @TempDir
  Path dir;

  private PrivateDbusDaemon bus;
  private FakeSystemd systemd;
  private DbusSystemd adapter;

  @BeforeEach
  void startBus() throws Exception {
    bus = PrivateDbusDaemon.start(
        dir,
        List.of("<deny send_destination=\"org.freedesktop.systemd1\" send_path=\""
            + FakeSystemd.unitPath(FORBIDDEN) + "\"/>"));
    systemd = FakeSystemd.exportOn(bus.address());
    systemd.addService("kubelet.service");
    systemd.addService(FORBIDDEN);
    systemd.addService("other.service");
    adapter = DbusSystemd.connect(bus.address());
  }

  @AfterEach
  void stopBus() throws Exception {
    if (adapter != null) {
      adapter.close();
    }
    if (systemd != null) {
      systemd.close();
    }
    if (bus != null) {
      bus.close();
    }
  }

  @Test
  void subscribesOnceWhenConnecting() {
    assertThat(systemd.calls()).containsExactly("Subscribe");
  }

  @Nested
  class JobWaiting {
    @Test
    void aJobWhoseSignalArrivesAfterTheReplyIsDone() {
      systemd.scriptJobs("done", Emission.AFTER_REPLY);

      assertThat(adapter.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.DONE);
      assertThat(systemd.calls()).contains("StartUnit kubelet.service replace");
    }

    @Test
    void aJobWhoseSignalArrivesBeforeTheReplyIsNotLost() {
      systemd.scriptJobs("done", Emission.BEFORE_REPLY);

      assertThat(adapter.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.DONE);
    }

    @Test
    void signalsOfOtherJobsDoNotDecideThisOne() {
      systemd.emitForeignJobBeforeEachJob();
      systemd.scriptJobs("done", Emission.AFTER_REPLY);

      assertThat(adapter.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.DONE);
      systemd.scriptJobs("done", Emission.BEFORE_REPLY);
      assertThat(adapter.restart("kubelet.service", GENEROUS)).isEqualTo(JobResult.DONE);
    }

    @Test
    void systemdsResultStringBecomesTheJobResult() {
      systemd.scriptJobs("failed", Emission.AFTER_REPLY);
      assertThat(adapter.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.FAILED);

      systemd.scriptJobs("dependency", Emission.BEFORE_REPLY);
      assertThat(adapter.restart("kubelet.service", GENEROUS)).isEqualTo(JobResult.DEPENDENCY);

      systemd.scriptJobs("canceled", Emission.AFTER_REPLY);
      assertThat(adapter.stop("kubelet.service", GENEROUS)).isEqualTo(JobResult.CANCELED);
    }

    @Test
    void aResultOutsideTheDocumentedSetCountsAsFailed() {
      systemd.scriptJobs("unsupported", Emission.AFTER_REPLY);

      assertThat(adapter.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.FAILED);
    }

    @Test
    void aJobThatNeverEndsIsAWaitTimeoutAtTheDeadline() {
      systemd.scriptJobs("done", Emission.NEVER);

      long started = System.nanoTime();
      JobResult result = adapter.start("kubelet.service", Duration.ofMillis(400));
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(result).isEqualTo(JobResult.WAIT_TIMEOUT);
      assertThat(elapsedMillis).isBetween(350L, 5_000L);
    }

    @Test
    void stopAndRestartCallTheirOwnMembersInReplaceMode() {
      adapter.stop("kubelet.service", GENEROUS);
      adapter.restart("kubelet.service", GENEROUS);

      assertThat(systemd.calls())
          .contains("StopUnit kubelet.service replace", "RestartUnit kubelet.service replace");
    }

    @Test
    void aWaitingJobFailsAsUnreachableWhenTheBusGoesAway() throws Exception {
      systemd.scriptJobs("done", Emission.NEVER);
      CompletableFuture<JobResult> waiting = CompletableFuture.supplyAsync(
          () -> adapter.start("kubelet.service", Duration.ofSeconds(30)));
      Thread.sleep(300);

      bus.kill();

      assertThat(waiting)
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .havingCause()
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
    }
  }

  @Nested
  class UnitProperties {
    @Test
    void statusReadsUnitAndServiceProperties() {
      adapter.start("kubelet.service", GENEROUS);

      UnitStatus status = adapter.status("kubelet.service");

      assertThat(status)
          .isEqualTo(new UnitStatus(
              "kubelet.service",
              LoadState.LOADED,
              ActiveState.ACTIVE,
              "running",
              4242,
              "/etc/systemd/system/kubelet.service",
              "success"));
    }

    @Test
    void statusReadsWhenTheUnitEnteredTheActiveStateInMicroseconds() {
      systemd.unit("kubelet.service").activeEnterMicros = 1_764_590_400_123_456L;

      UnitStatus status = adapter.status("kubelet.service");

      assertThat(status.activeEnteredAt()).contains(Instant.parse("2025-12-01T12:00:00.123456Z"));
    }

    @Test
    void anUnknownUnitIsReportedAsNotFoundRatherThanThrown() {
      UnitStatus status = adapter.status("nothing-here.service");

      assertThat(status.load()).isEqualTo(LoadState.NOT_FOUND);
      assertThat(status.active()).isEqualTo(ActiveState.INACTIVE);
      assertThat(status.mainPid()).isZero();
    }

    @Test
    void awaitStateWakesOnPropertiesChangedRatherThanPolling() {
      systemd.changeStateLater("kubelet.service", "active", "running", 100);

      long started = System.nanoTime();
      UnitStatus status =
          adapter.awaitState("kubelet.service", Set.of(ActiveState.ACTIVE), GENEROUS);
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(status.active()).isEqualTo(ActiveState.ACTIVE);
      assertThat(elapsedMillis)
          .as("woken by the signal, before the 1 s re-check")
          .isLessThan(900L);
    }

    @Test
    void awaitStateReturnsAtOnceWhenTheUnitIsAlreadyThere() {
      UnitStatus status = adapter.awaitState(
          "kubelet.service", Set.of(ActiveState.INACTIVE, ActiveState.FAILED), GENEROUS);

      assertThat(status.active()).isEqualTo(ActiveState.INACTIVE);
    }

    @Test
    void awaitStateReturnsTheLastStateSeenAtTheDeadline() {
      UnitStatus status =
          adapter.awaitState("kubelet.service", Set.of(ActiveState.ACTIVE), Duration.ofMillis(300));

      assertThat(status.active()).isEqualTo(ActiveState.INACTIVE);
    }

    @Test
    void awaitStateRereadsAtTheDeadlineSoAChangeWithoutASignalIsNotLost() {
      systemd.changeStateSilentlyLater("kubelet.service", "failed", "failed", 200);

      long started = System.nanoTime();
      UnitStatus status =
          adapter.awaitState("kubelet.service", Set.of(ActiveState.FAILED), Duration.ofMillis(600));
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

      assertThat(status.active()).isEqualTo(ActiveState.FAILED);
      assertThat(elapsedMillis)
          .as("seen by the final re-read at the deadline")
          .isGreaterThanOrEqualTo(550L);
    }
  }

  @Nested
  class UnitFilesAndOtherCalls {
    @Test
    void enableCallsEnableUnitFilesThenReloads() {
      adapter.enable(List.of("kubelet.service"));

      assertThat(systemd.calls())
          .endsWith("EnableUnitFiles [kubelet.service] false false", "Reload");
    }

    @Test
    void enablingWhatIsAlreadyEnabledChangesNoLinkAndSkipsTheReload() {
      adapter.enable(List.of("kubelet.service"));

      adapter.enable(List.of("kubelet.service"));

      assertThat(systemd.calls())
          .endsWith(
              "EnableUnitFiles [kubelet.service] false false",
              "Reload",
              "EnableUnitFiles [kubelet.service] false false");
    }

    @Test
    void disableCallsDisableUnitFilesThenReloads() {
      adapter.enable(List.of("kubelet.service"));

      adapter.disable(List.of("kubelet.service", "/etc/systemd/system/forbidden.service"));

      assertThat(systemd.calls())
          .endsWith(
              "DisableUnitFiles [kubelet.service, /etc/systemd/system/forbidden.service] false",
              "Reload");
    }

    @Test
    void disablingWhatIsNotEnabledSkipsTheReload() {
      adapter.disable(List.of("kubelet.service"));

      assertThat(systemd.calls()).endsWith("DisableUnitFiles [kubelet.service] false");
    }

    @Test
    void daemonReloadCallsReload() {
      adapter.daemonReload();

      assertThat(systemd.calls()).endsWith("Reload");
    }

    @Test
    void resetFailedCallsResetFailedUnit() {
      adapter.resetFailed("other.service");

      assertThat(systemd.calls()).endsWith("ResetFailedUnit other.service");
    }

    @Test
    void resetFailedOfAUnitSystemdHasUnloadedIsANoOp() {
      systemd.unload("other.service");

      adapter.resetFailed("other.service");

      assertThat(systemd.calls())
          .contains("ResetFailedUnit other.service", "LoadUnit other.service");
    }

    @Test
    void killingAllProcessesOfAnUnloadedUnitIsANoOpButItHasNoMainProcess() {
      systemd.unload("other.service");

      adapter.kill("other.service", true, 15);
      systemd.unload("other.service");
      assertThatThrownBy(() -> adapter.kill("other.service", false, 15))
          .isInstanceOfSatisfying(SystemdException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.OTHER);
            assertThat(e.getMessage()).contains("no main process");
          });
    }

    @Test
    void resetFailedAndKillOfAUnitWithoutUnitFileAreNoSuchUnit() {
      assertThatThrownBy(() -> adapter.resetFailed("nothing-here.service"))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NO_SUCH_UNIT));
      assertThatThrownBy(() -> adapter.kill("nothing-here.service", true, 15))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NO_SUCH_UNIT));
    }

    @Test
    void killSendsTheSignalToAllProcessesOrOnlyTheMainOne() {
      adapter.start("kubelet.service", GENEROUS);
      adapter.kill("kubelet.service", true, 9);
      adapter.kill("kubelet.service", false, 15);

      assertThat(systemd.calls())
          .endsWith("KillUnit kubelet.service all 9", "KillUnit kubelet.service main 15");
    }
  }

  @Nested
  class Errors {
    @Test
    void startingAnUnknownUnitIsNoSuchUnit() {
      assertThatThrownBy(() -> adapter.start("nothing-here.service", GENEROUS))
          .isInstanceOfSatisfying(SystemdException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.NO_SUCH_UNIT);
            assertThat(e.unit()).isEqualTo("nothing-here.service");
            assertThat(e.getMessage()).contains("nothing-here.service");
          });
    }

    @Test
    void killingOrEnablingAnUnknownUnitIsNoSuchUnit() {
      assertThatThrownBy(() -> adapter.kill("nothing-here.service", true, 15))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NO_SUCH_UNIT));
      assertThatThrownBy(() -> adapter.enable(List.of("nothing-here.service")))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NO_SUCH_UNIT));
    }

    @Test
    void aCallTheBusPolicyRefusesIsAccessDenied() throws Exception {
      assertThatThrownBy(() -> adapter.status(FORBIDDEN))
          .isInstanceOfSatisfying(SystemdException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
            assertThat(e.unit()).isEqualTo(FORBIDDEN);
          });
    }

    @Test
    void aManagerMethodTheBusPolicyRefusesIsAccessDenied() throws Exception {
      Path strictDir = java.nio.file.Files.createDirectory(dir.resolve("strict"));
      try (PrivateDbusDaemon strictBus = PrivateDbusDaemon.start(
              strictDir,
              List.of(
                  "<deny send_destination=\"org.freedesktop.systemd1\" send_interface=\"org.freedesktop.systemd1.Manager\" send_member=\"KillUnit\"/>"));
          FakeSystemd strictSystemd = FakeSystemd.exportOn(strictBus.address());
          DbusSystemd strictAdapter = DbusSystemd.connect(strictBus.address())) {
        strictSystemd.addService("kubelet.service");

        assertThatThrownBy(() -> strictAdapter.kill("kubelet.service", true, 15))
            .isInstanceOfSatisfying(SystemdException.class, e -> {
              assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
              assertThat(e.unit()).isEqualTo("kubelet.service");
            });
        assertThat(strictSystemd.calls()).noneMatch(call -> call.startsWith("KillUnit"));
      }
    }

    @Test
    void badUnitNamesAreRejectedBeforeAnyCall() {
      int callsBefore = systemd.calls().size();

      assertThatThrownBy(() -> adapter.start("kubelet", GENEROUS))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'kubelet'");
      assertThatThrownBy(() -> adapter.status("../etc/passwd.service"))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> adapter.kill("kubelet.service", true, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("0");
      assertThatThrownBy(() -> adapter.start("kubelet.service", Duration.ofSeconds(-1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("negative");
      assertThat(systemd.calls()).hasSize(callsBefore);
    }

    @Test
    void callsAfterCloseAreUnreachable() {
      adapter.close();
      adapter.close();

      assertThatThrownBy(() -> adapter.status("kubelet.service"))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
    }
  }

  @Nested
  class Connecting {
    @Test
    void aBusWithoutSystemdOnItIsUnreachable() throws Exception {
      systemd.close();
      systemd = null;

      assertThatThrownBy(() -> DbusSystemd.connect(bus.address()))
          .isInstanceOfSatisfying(
              SystemdException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE));
    }

    @Test
    void aSocketNobodyListensOnIsUnreachable() {
      String nowhere = "unix:path=" + dir.resolve("no-such-socket");

      assertThatThrownBy(() -> DbusSystemd.connect(nowhere))
          .isInstanceOfSatisfying(SystemdException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e.getMessage()).contains(nowhere);
          });
    }

    @Test
    void aMissingMachineIdIsReportedWithHowToFixIt() {
      MachineIdLocator none = new MachineIdLocator(
          java.util.Map.of(
              MachineIdLocator.ENVIRONMENT_VARIABLE,
              dir.resolve("absent-machine-id").toString()),
          List.of(dir.resolve("also-absent")));

      assertThatThrownBy(() -> DbusSystemd.connect(bus.address(), none))
          .isInstanceOfSatisfying(SystemdException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e.getMessage())
                .contains("machine id", "DBUS_MACHINE_ID_LOCATION", "absent-machine-id");
          });
    }

    @Test
    void onlyUnixPathAddressesAreAccepted() {
      assertThatThrownBy(() -> DbusSystemd.connect("unix:abstract=/tmp/dbus-xyz"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unix:abstract=/tmp/dbus-xyz");
      assertThatThrownBy(() -> DbusSystemd.connect("tcp:host=localhost,port=1"))
          .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void twoAdaptersOnOneBusHaveTheirOwnConnections() {
      try (DbusSystemd second = DbusSystemd.connect(bus.address())) {
        adapter.close();

        assertThat(second.start("kubelet.service", GENEROUS)).isEqualTo(JobResult.DONE);
      }
    }
  }
}
