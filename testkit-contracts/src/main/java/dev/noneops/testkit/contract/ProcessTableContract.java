package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.process.ProcessDetail;
import dev.noneops.ports.process.ProcessIdentity;
import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The {@link ProcessTable} contract. A subclass supplies the port and a way to start a process
 * that runs until killed (its argv carries a marker) and to wait until such a process is gone.
 */
public abstract class ProcessTableContract {
  private static final int SIGKILL = 9;

  protected abstract ProcessTable processes();

  /** Starts a process that runs until killed, with {@code marker} as its last argument; returns its pid. */
  protected abstract long startLongRunning(String marker) throws Exception;

  /** The canonical path of the executable {@link #startLongRunning} runs. */
  protected abstract String longRunningExe();

  /** Waits until a process this fixture started has exited and been reaped. */
  protected abstract void awaitGone(long pid) throws Exception;

  @Test
  void aStartedProcessIsListedWithItsExeAndArgv() throws Exception {
    long pid = startLongRunning("contract-listed");
    try {
      ProcessInfo info =
          processes().list().stream().filter(p -> p.pid() == pid).findFirst().orElseThrow();
      assertThat(info.exe()).contains(longRunningExe());
      assertThat(info.argv()).last().isEqualTo("contract-listed");
      assertThat(info.cgroup())
          .satisfiesAnyOf(c -> assertThat(c).isEmpty(), c -> assertThat(c).startsWith("/"));
      assertThat(processes().get(pid)).contains(info);
    } finally {
      processes().signal(pid, SIGKILL);
      awaitGone(pid);
    }
  }

  @Test
  void theListIsOrderedByPid() throws Exception {
    long a = startLongRunning("contract-order-a");
    long b = startLongRunning("contract-order-b");
    try {
      List<Long> pids = processes().list().stream().map(ProcessInfo::pid).toList();
      assertThat(pids).isSorted().contains(a, b);
    } finally {
      processes().signal(a, SIGKILL);
      processes().signal(b, SIGKILL);
      awaitGone(a);
      awaitGone(b);
    }
  }

  @Test
  void aProcessMapsItsExecutable() throws Exception {
    long pid = startLongRunning("contract-maps");
    try {
      assertThat(processes().get(pid).orElseThrow().mappedFiles()).contains(longRunningExe());
    } finally {
      processes().signal(pid, SIGKILL);
      awaitGone(pid);
    }
  }

  @Test
  void withoutDetailsAProcessIsIdentifiedAsFullyButMapsNothing() throws Exception {
    long pid = startLongRunning("contract-no-details");
    try {
      ProcessInfo full = processes().get(pid).orElseThrow();
      ProcessInfo listed = processes().list(Set.of()).stream()
          .filter(p -> p.pid() == pid)
          .findFirst()
          .orElseThrow();
      ProcessInfo got = processes().get(pid, Set.of()).orElseThrow();

      assertThat(full.mappedFiles()).isNotEmpty();
      for (ProcessInfo lean : List.of(listed, got)) {
        assertThat(lean.exe()).isEqualTo(full.exe());
        assertThat(lean.argv()).isEqualTo(full.argv());
        assertThat(lean.cgroup()).isEqualTo(full.cgroup());
        assertThat(lean.mappedFiles()).as("mapped files were not asked for").isEmpty();
      }
    } finally {
      processes().signal(pid, SIGKILL);
      awaitGone(pid);
    }
  }

  @Test
  void askedForMappedFilesAProcessMapsItsExecutable() throws Exception {
    long pid = startLongRunning("contract-mapped-files");
    try {
      Set<ProcessDetail> mapped = Set.of(ProcessDetail.MAPPED_FILES);
      ProcessInfo listed = processes().list(mapped).stream()
          .filter(p -> p.pid() == pid)
          .findFirst()
          .orElseThrow();

      assertThat(listed.mappedFiles()).contains(longRunningExe());
      assertThat(processes().get(pid, mapped).orElseThrow().mappedFiles())
          .contains(longRunningExe());
      assertThat(processes().list(mapped)).extracting(ProcessInfo::pid).isSorted();
    } finally {
      processes().signal(pid, SIGKILL);
      awaitGone(pid);
    }
  }

  @Test
  void aProcessThatIsGoneIsAbsentWhateverTheDetails() throws Exception {
    long pid = startLongRunning("contract-gone-details");
    processes().signal(pid, SIGKILL);
    awaitGone(pid);

    assertThat(processes().get(pid, Set.of())).isEmpty();
    assertThat(processes().get(pid, ProcessDetail.all())).isEmpty();
    assertThat(processes().list(Set.of())).extracting(ProcessInfo::pid).doesNotContain(pid);
  }

  @Test
  void detailsMustBeGiven() {
    assertThatThrownBy(() -> processes().list(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("details");
    assertThatThrownBy(() -> processes().get(1, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("details");
  }

  @Test
  void sigkillEndsAProcessAndSignallingItAgainReportsItGone() throws Exception {
    long pid = startLongRunning("contract-kill");
    assertThat(processes().signal(pid, 0)).isTrue();
    assertThat(processes().signal(pid, SIGKILL)).isTrue();
    awaitGone(pid);
    assertThat(processes().get(pid)).isEmpty();
    assertThat(processes().signal(pid, SIGKILL)).isFalse();
  }

  @Test
  void aProcessIsIdentifiedByItsPidAndStartTimeUntilItIsGone() throws Exception {
    long first = startLongRunning("contract-identity-a");
    long second = startLongRunning("contract-identity-b");
    try {
      ProcessIdentity a = processes().identity(first).orElseThrow();
      ProcessIdentity b = processes().identity(second).orElseThrow();
      assertThat(a.pid()).isEqualTo(first);
      assertThat(b.pid()).isEqualTo(second);
      assertThat(b.startTime()).isGreaterThanOrEqualTo(a.startTime());
      assertThat(processes().identity(first)).contains(a);
    } finally {
      processes().signal(first, SIGKILL);
      processes().signal(second, SIGKILL);
      awaitGone(first);
      awaitGone(second);
    }
    assertThat(processes().identity(first)).isEmpty();
  }

  @Test
  void theCallingProcessIsOneOfTheTable() throws Exception {
    ProcessIdentity self = processes().self();
    assertThat(processes().identity(self.pid())).contains(self);
  }
}
