package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.process.ProcessInfo;
import dev.noneops.ports.process.ProcessTable;
import java.util.List;
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
      ProcessInfo info = processes().list().stream().filter(p -> p.pid() == pid).findFirst().orElseThrow();
      assertThat(info.exe()).contains(longRunningExe());
      assertThat(info.argv()).last().isEqualTo("contract-listed");
      assertThat(info.cgroup()).satisfiesAnyOf(c -> assertThat(c).isEmpty(), c -> assertThat(c).startsWith("/"));
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
  void sigkillEndsAProcessAndSignallingItAgainReportsItGone() throws Exception {
    long pid = startLongRunning("contract-kill");
    assertThat(processes().signal(pid, 0)).isTrue();
    assertThat(processes().signal(pid, SIGKILL)).isTrue();
    awaitGone(pid);
    assertThat(processes().get(pid)).isEmpty();
    assertThat(processes().signal(pid, SIGKILL)).isFalse();
  }
}
