package dev.noneops.testkit.download;

import dev.noneops.ports.download.ArtifactDownloader;
import dev.noneops.ports.download.DownloadException;
import dev.noneops.ports.download.DownloadListener;
import dev.noneops.ports.download.DownloadResult;
import dev.noneops.ports.download.Sha256;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.gate.PortGate;
import dev.noneops.testkit.time.VirtualClock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ArtifactDownloader} port over an {@link SimArtifactRepository}: a verified file already
 * at the destination costs no transfer; otherwise the content goes into a temp file beside the
 * destination, is fsynced, verified and only then renamed into place (mode 0644) and the directory
 * fsynced. 5xx, 429 and broken connections are retried (three attempts, backoff on the virtual
 * clock); other statuses and checksum mismatches are not.
 */
public final class SimArtifactDownloader implements ArtifactDownloader {
  private static final String PORT = "downloads";
  private static final int ATTEMPTS = 3;
  /** The mode downloaded files get. */
  public static final int FILE_MODE = 0644;

  private final PortGate gate;
  private final SimFileSystem fs;
  private final SimArtifactRepository repository;
  private final VirtualClock clock;

  public SimArtifactDownloader(
      PortGate gate, SimFileSystem fs, SimArtifactRepository repository, VirtualClock clock) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.fs = Objects.requireNonNull(fs, "fs");
    this.repository = Objects.requireNonNull(repository, "repository");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public DownloadResult download(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(listener, "listener");
    requirePositive(maxBytes);
    return gate.call(PORT, "download", true, PortGate.args(url, destination), () -> {
      if (expected.isPresent()) {
        Optional<byte[]> present = existingContent(destination);
        if (present.isPresent()
            && SimArtifactRepository.sha256Hex(present.get())
                .equals(expected.get().hex())) {
          return new DownloadResult(destination, expected.get(), present.get().length, 0);
        }
      }
      byte[] body = get(url, maxBytes);
      listener.progress(url, body.length, body.length);
      Sha256 actual = new Sha256(SimArtifactRepository.sha256Hex(body));
      fs.writeDurably(destination, new ByteArrayInputStream(body), FILE_MODE, written -> {
        if (expected.isPresent() && !expected.get().equals(actual)) {
          throw new DownloadException(
              url,
              DownloadException.Reason.CHECKSUM_MISMATCH,
              "sha256 " + actual + " does not match the expected " + expected.get());
        }
      });
      return new DownloadResult(destination, actual, body.length, body.length);
    });
  }

  @Override
  public byte[] fetch(URI url, long maxBytes) throws IOException {
    Objects.requireNonNull(url, "url");
    requirePositive(maxBytes);
    return gate.call(PORT, "fetch", false, PortGate.args(url), () -> get(url, maxBytes));
  }

  @Override
  public int head(URI url, Duration timeout) throws IOException {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(timeout, "timeout");
    return gate.call(PORT, "head", false, PortGate.args(url), () -> repository.head(url));
  }

  private Optional<byte[]> existingContent(Path destination) throws IOException {
    var meta = fs.lstat(destination);
    if (meta.isEmpty() || !meta.get().isRegularFile()) {
      return Optional.empty();
    }
    return Optional.of(fs.read(destination));
  }

  private byte[] get(URI url, long maxBytes) throws IOException {
    String lastProblem = "";
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) {
        clock.advance(Duration.ofSeconds(1L << (attempt - 2)));
      }
      SimArtifactRepository.Response response = repository.get(url);
      if (response instanceof SimArtifactRepository.Ok ok) {
        if (ok.body().length > maxBytes) {
          repository.served(url, maxBytes);
          throw new DownloadException(
              url,
              DownloadException.Reason.TOO_LARGE,
              "content of " + ok.body().length + " bytes exceeds the limit of " + maxBytes);
        }
        repository.served(url, ok.body().length);
        return ok.body();
      }
      if (response instanceof SimArtifactRepository.Status status) {
        if (status.code() >= 500 || status.code() == 429) {
          lastProblem = "HTTP " + status.code();
          continue;
        }
        throw new DownloadException(
            url, DownloadException.Reason.HTTP_STATUS, "HTTP " + status.code());
      }
      lastProblem = "connection reset";
    }
    if (lastProblem.startsWith("HTTP")) {
      throw new DownloadException(
          url,
          DownloadException.Reason.HTTP_STATUS,
          lastProblem + " after " + ATTEMPTS + " attempts");
    }
    throw new DownloadException(
        url, DownloadException.Reason.TRANSPORT, lastProblem + " after " + ATTEMPTS + " attempts");
  }

  private static void requirePositive(long maxBytes) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
    }
  }
}
