package dev.noneops.acceptance.contract.real;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Processes a contract test starts: {@code sh -c 'read line' <marker>} blocks reading a pipe that
 * only the test holds, so it runs (without children) until killed and its argv ends with the
 * marker. Every process is killed and reaped by {@link #stopAll()}.
 */
final class StartedProcesses {

  private final Map<Long, Process> started = new ConcurrentHashMap<>();

  long start(String marker) throws IOException {
    Process p = new ProcessBuilder("/bin/sh", "-c", "echo ready; read line", marker)
        .redirectErrorStream(true)
        .start();
    started.put(p.pid(), p);
    // wait until the shell runs its script: by then the loader has mapped every library, so two
    // reads of its maps agree
    String first = new java.io.BufferedReader(new java.io.InputStreamReader(
            p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
        .readLine();
    if (!"ready".equals(first)) {
      throw new IOException("the started shell printed " + first + " instead of ready");
    }
    return p.pid();
  }

  /** Waits until {@code pid}, started here, has exited and been reaped. */
  void awaitGone(long pid) throws InterruptedException {
    Process p = started.get(pid);
    if (p == null) {
      throw new IllegalArgumentException("pid " + pid + " was not started by this test");
    }
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("pid " + pid + " still runs 30 s after it was killed");
    }
  }

  void stop(long pid) throws InterruptedException {
    Process p = started.get(pid);
    if (p != null) {
      p.destroyForcibly();
      awaitGone(pid);
    }
  }

  void stopAll() throws InterruptedException {
    for (long pid : new ArrayList<>(started.keySet())) {
      stop(pid);
    }
  }

  List<Long> pids() {
    return List.copyOf(started.keySet());
  }
}
