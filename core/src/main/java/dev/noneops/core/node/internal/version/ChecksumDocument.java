package dev.noneops.core.node.internal.version;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the digest of one file from a published checksum document: a bare hex digest
 * (Kubernetes' {@code .sha256}), or {@code sha256sum} output, one {@code <hex>  <file>} line per
 * file ({@code <hex> *<file>} in binary mode). A document of one line gives its digest whatever
 * file it names (a mirror may rename files; a wrong digest never matches); of several lines
 * (runc's {@code runc.sha256sum} lists every architecture) the one naming {@code entry} is used.
 */
public final class ChecksumDocument {
  private ChecksumDocument() {}

  /** A line of the document: its first token and the file it names ({@code ""} when none). */
  private record Line(String digest, String file) {}

  /**
   * The digest text {@code document} gives for {@code entry}, or empty when it lists several files
   * and none is {@code entry}. The text is not checked to be a digest here.
   */
  public static Optional<String> digestOf(String document, String entry) {
    List<Line> lines = new ArrayList<>();
    for (String raw : document.split("\\R")) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      String[] parts = line.split("\\s+", 2);
      String file = parts.length == 2 ? parts[1].strip() : "";
      lines.add(new Line(parts[0], fileName(file.startsWith("*") ? file.substring(1) : file)));
    }
    if (lines.isEmpty()) {
      return Optional.of("");
    }
    if (lines.size() == 1) {
      return Optional.of(lines.get(0).digest());
    }
    return lines.stream().filter(l -> l.file().equals(entry)).map(Line::digest).findFirst();
  }

  /** {@code ./runc.amd64} and {@code dist/runc.amd64} name {@code runc.amd64}. */
  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
