package dev.noneops.acceptance.system;

import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;

/**
 * A JVM that boots a sandbox, prints its PID 1 and waits to be killed; used to prove that a
 * sandbox does not outlive the JVM that started it.
 */
public final class SandboxOwnerProcess {
  private SandboxOwnerProcess() {}

  public static void main(String[] args) throws InterruptedException {
    SystemdSandbox sandbox = SystemdSandbox.boot(args[0]);
    System.out.println("sandbox-pid " + sandbox.pid());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
