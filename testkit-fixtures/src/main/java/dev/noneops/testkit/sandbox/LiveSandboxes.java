package dev.noneops.testkit.sandbox;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The sandboxes this JVM started and has not stopped yet, stopped by one JVM shutdown hook should
 * a test run end without closing them. (A JVM killed outright cannot run hooks; the launcher's
 * stdin pipe covers that case, see {@link BootScript#LAUNCHER}.)
 */
final class LiveSandboxes {
  private static final Set<SystemdSandbox> LIVE = new LinkedHashSet<>();
  private static boolean hookInstalled;

  private LiveSandboxes() {}

  static synchronized void add(SystemdSandbox sandbox) {
    if (!hookInstalled) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(LiveSandboxes::stopAll, "noneops-sandbox-stopper"));
      hookInstalled = true;
    }
    LIVE.add(sandbox);
  }

  static synchronized void remove(SystemdSandbox sandbox) {
    LIVE.remove(sandbox);
  }

  private static void stopAll() {
    List<SystemdSandbox> left;
    synchronized (LiveSandboxes.class) {
      left = List.copyOf(LIVE);
    }
    left.forEach(SystemdSandbox::close);
  }
}
