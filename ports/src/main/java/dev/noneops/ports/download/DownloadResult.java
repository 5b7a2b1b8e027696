package dev.noneops.ports.download;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A download that completed and verified.
 *
 * @param file where the verified content now is
 * @param sha256 its digest
 * @param bytes its size
 * @param bytesTransferred bytes that came over the network (0 when the verified file was already
 *     present)
 */
public record DownloadResult(Path file, Sha256 sha256, long bytes, long bytesTransferred) {
  public DownloadResult {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sha256, "sha256");
  }
}
