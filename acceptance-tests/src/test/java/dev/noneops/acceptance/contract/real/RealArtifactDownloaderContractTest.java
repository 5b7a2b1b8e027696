package dev.noneops.acceptance.contract.real;

import dev.noneops.hostfs.RealHost;
import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.contract.ArtifactDownloaderContract;
import dev.noneops.testkit.fixtures.artifacts.ArtifactServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link ArtifactDownloader} contract with the JDK HTTP client against a local artifact server. */
class RealArtifactDownloaderContractTest extends ArtifactDownloaderContract {

  private static final RealHost HOST = RealHost.create();

  @TempDir
  Path temp;

  private Path scratch;
  private Path docroot;
  private ArtifactServer server;

  @BeforeEach
  void startServer() throws IOException {
    scratch = Files.createDirectory(temp.resolve("scratch"));
    docroot = Files.createDirectory(temp.resolve("docroot"));
    server = ArtifactServer.serve(docroot);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Override
  protected ArtifactDownloader downloader() {
    return HOST.downloads();
  }

  @Override
  protected HostFiles files() {
    return HOST.files();
  }

  @Override
  protected Path scratch() {
    return scratch;
  }

  @Override
  protected URI publish(String name, byte[] content) throws IOException {
    Files.write(docroot.resolve(name), content);
    return server.uri(name);
  }

  @Override
  protected URI missing(String name) {
    return server.uri("missing/" + name);
  }
}
