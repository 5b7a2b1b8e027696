package dev.noneops.ports.download;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Fetches artifacts over HTTP(S).
 *
 * <p>{@link #download} streams into a temp file beside {@code destination}, verifies the SHA-256
 * (when one is expected) and only then durably renames it into place: a file at
 * {@code destination} is always complete and verified. When {@code destination} already holds
 * content with the expected digest, nothing is transferred. Transient failures (connection
 * errors, 5xx, 429) are retried a bounded number of times with backoff; 4xx and checksum
 * mismatches are not.
 */
public interface ArtifactDownloader {

  DownloadResult download(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException;

  /**
   * {@link #download} of a file the caller removes again once it has used it (an archive that is
   * extracted), so it needs no durability: an implementation may skip the {@code fsync} of the file
   * and of its directory. Everything else holds as for {@link #download}: a file at
   * {@code destination} is complete and verified while the system runs, but after a power loss it
   * may be empty or gone, which is why only scratch space (that recovery removes) may hold it. The
   * default is the durable {@link #download}.
   */
  default DownloadResult downloadScratch(
      URI url,
      Optional<Sha256> expected,
      Path destination,
      long maxBytes,
      DownloadListener listener)
      throws IOException {
    return download(url, expected, destination, maxBytes, listener);
  }

  /** A small document (a {@code .sha256} file) held in memory; at most {@code maxBytes}. */
  byte[] fetch(URI url, long maxBytes) throws IOException;

  /**
   * Whether {@code url} answers, without transferring it: one {@code HEAD} request, not retried,
   * that gives up after {@code timeout}; redirects are followed.
   *
   * @return the final HTTP status (200 for an artifact that is there, 404 for one that is not)
   * @throws DownloadException of reason {@code TRANSPORT} when no answer came within the timeout
   */
  int head(URI url, Duration timeout) throws IOException;
}
