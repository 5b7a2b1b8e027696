package dev.noneops.testkit.system;

import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** The real downloader, writing each artifact to the sandbox's path of its destination. */
public final class RootedArtifactDownloader implements ArtifactDownloader {
  private final ArtifactDownloader host;
  private final SandboxRoot root;

  public RootedArtifactDownloader(ArtifactDownloader host, SandboxRoot root) {
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
  }

  @Override
  public DownloadResult download(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException {
    DownloadResult r = host.download(url, expected, root.outside(destination), maxBytes, listener);
    return new DownloadResult(destination, r.sha256(), r.bytes(), r.bytesTransferred());
  }

  @Override
  public byte[] fetch(URI url, long maxBytes) throws IOException {
    return host.fetch(url, maxBytes);
  }

  @Override
  public int head(URI url, Duration timeout) throws IOException {
    return host.head(url, timeout);
  }
}
