package dev.noneops.acceptance.system;

import dev.noneops.testkit.fixtures.sandbox.SandboxNetwork;
import dev.noneops.testkit.fixtures.sandbox.SandboxRequirements;
import dev.noneops.testkit.fixtures.sandbox.SystemdSandbox;
import java.util.Objects;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Boots one {@link SystemdSandbox} for a test class and stops it after the class, whether its
 * tests passed or failed. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final SystemdSandboxExtension SANDBOX = new SystemdSandboxExtension("lifecycle");
 * }</pre>
 *
 * <p>Where a sandbox cannot be booted (not root, tools missing), the class's tests are skipped
 * with the reason.
 */
public final class SystemdSandboxExtension implements BeforeAllCallback, AfterAllCallback {
  private final String name;
  private final SandboxNetwork network;
  private SystemdSandbox sandbox;

  public SystemdSandboxExtension(String name) {
    this(name, SandboxNetwork.HOST);
  }

  /** A sandbox in {@code network}: its own network namespace, or the host's. */
  public SystemdSandboxExtension(String name, SandboxNetwork network) {
    this.name = Objects.requireNonNull(name, "name");
    this.network = Objects.requireNonNull(network, "network");
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    SandboxRequirements.unmetReason().ifPresent(reason -> Assumptions.abort(reason));
    sandbox = SystemdSandbox.boot(name, network);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (sandbox != null) {
      sandbox.close();
      sandbox = null;
    }
  }

  /** The running sandbox; only between the class's before-all and after-all phases. */
  public SystemdSandbox sandbox() {
    if (sandbox == null) {
      throw new IllegalStateException(
          "sandbox " + name + " is not running (used outside the test class, or it was skipped)");
    }
    return sandbox;
  }
}
