package dev.noneops.acceptance.contract.sim;

import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.contract.ArtifactDownloaderContract;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

class SimulatedArtifactDownloaderContractTest extends ArtifactDownloaderContract {
  private final SimulatedHost host = SimulatedHost.create();
  private final Path scratch = Path.of("/var/lib/contract");

  SimulatedArtifactDownloaderContractTest() throws IOException {
    host.fs().seedDirectory(scratch, 0755);
  }

  @Override
  protected ArtifactDownloader downloader() {
    return host.ports().downloads();
  }

  @Override
  protected HostFiles files() {
    return host.ports().files();
  }

  @Override
  protected Path scratch() {
    return scratch;
  }

  @Override
  protected URI publish(String name, byte[] content) {
    URI url = URI.create("https://artifacts.sim/" + name);
    host.artifacts().publish(url, content);
    return url;
  }

  @Override
  protected URI missing(String name) {
    return URI.create("https://artifacts.sim/missing/" + name);
  }
}
