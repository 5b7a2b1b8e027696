package dev.noneops.testkit.host;

import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** The {@link HostFacts} port with facts a test sets; defaults describe a plain amd64 host. */
public final class SimHostFacts implements HostFacts {
  /** The facts a fresh simulated host reports. */
  public static final HostInfo DEFAULT =
      new HostInfo("amd64", "6.1.0-sim", "sim-node", List.<Path>of(), false, List.of("192.0.2.53"));

  private final PortGate gate;
  private HostInfo info = DEFAULT;

  public SimHostFacts(PortGate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
  }

  public void set(HostInfo info) {
    synchronized (gate.monitor()) {
      this.info = Objects.requireNonNull(info, "info");
    }
  }

  @Override
  public HostInfo read() throws IOException {
    return gate.call("facts", "read", false, List.of(), () -> info);
  }
}
