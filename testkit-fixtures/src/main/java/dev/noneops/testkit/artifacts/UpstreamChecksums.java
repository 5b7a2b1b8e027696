package dev.noneops.testkit.artifacts;

import dev.noneops.core.config.DownloadArtifact;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The checksum documents the upstream projects publish beside their artifacts, in their formats,
 * for the testkit's repositories to publish the same:
 *
 * <ul>
 *   <li>Kubernetes: {@code <binary>.sha256}, the bare hex digest;
 *   <li>containerd: {@code <tarball>.sha256sum}, {@code sha256sum} output {@code <hex>  <file>};
 *   <li>runc: one {@value #RUNC_DOCUMENT} beside the binaries listing every architecture's,
 *       one {@code <hex>  runc.<arch>} line each;
 *   <li>the CNI plugins, crictl and CoreDNS: {@code <tarball>.sha256}, {@code <hex>  <file>}.
 * </ul>
 */
public final class UpstreamChecksums {
  /** The name of runc's checksum document. */
  public static final String RUNC_DOCUMENT = "runc.sha256sum";

  private UpstreamChecksums() {}

  /** The name of the document beside {@code fileName} that holds its digest. */
  public static String documentName(DownloadArtifact kind, String fileName) {
    return switch (kind) {
      case CONTAINERD -> fileName + ".sha256sum";
      case RUNC -> RUNC_DOCUMENT;
      case KUBERNETES, CNI, CRICTL, LOCALDNS -> fileName + ".sha256";
    };
  }

  /**
   * The document holding {@code hex} as the digest of {@code fileName}. A document listing several
   * files (runc's) keeps the lines of {@code existing} for the other files, sorted by file name.
   */
  public static String document(
      DownloadArtifact kind, String fileName, String hex, Optional<String> existing) {
    return switch (kind) {
      case KUBERNETES -> hex + "\n";
      case RUNC -> merged(existing.orElse(""), fileName, hex);
      case CONTAINERD, CNI, CRICTL, LOCALDNS -> line(hex, fileName);
    };
  }

  /** Whether {@code document} lists {@code fileName} (or, holding one bare digest, is one). */
  public static boolean lists(DownloadArtifact kind, String document, String fileName) {
    return kind == DownloadArtifact.KUBERNETES
        ? !document.isBlank()
        : entries(document).containsKey(fileName);
  }

  /** {@code sha256sum}'s line for one file. */
  public static String line(String hex, String fileName) {
    return hex + "  " + fileName + "\n";
  }

  /** {@code sha256sum} lines: {@code existing} with the line of {@code fileName} set to {@code hex}. */
  public static String merged(String existing, String fileName, String hex) {
    Map<String, String> entries = entries(existing);
    entries.put(fileName, hex);
    StringBuilder out = new StringBuilder();
    entries.forEach((file, digest) -> out.append(line(digest, file)));
    return out.toString();
  }

  private static Map<String, String> entries(String document) {
    Map<String, String> entries = new TreeMap<>();
    for (String raw : document.split("\n")) {
      String[] parts = raw.strip().split("\\s+", 2);
      if (parts.length == 2) {
        entries.put(parts[1].startsWith("*") ? parts[1].substring(1) : parts[1], parts[0]);
      }
    }
    return entries;
  }
}
