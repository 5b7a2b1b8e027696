package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.health.HealthProbes;
import dev.noneops.testkit.contract.HealthProbesContract;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link HealthProbes} contract over real sockets: a local HTTP server answers 200 or 404. */
class RealHealthProbesContractTest extends HealthProbesContract {

  private static final HealthProbes PROBES = RealHost.create().probes();

  @TempDir
  Path docroot;

  private ArtifactServer server;

  @BeforeEach
  void startServer() throws IOException {
    Files.writeString(docroot.resolve("healthz"), "ok");
    server = ArtifactServer.serve(docroot);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Override
  protected HealthProbes probes() {
    return PROBES;
  }

  @Override
  protected URI healthyUrl() {
    return server.uri("healthz");
  }

  @Override
  protected URI unhealthyUrl() {
    return server.uri("not-healthy");
  }
}
