package dev.noneops.core.goalstate.internal;

import java.net.URI;

/**
 * The URL of a checksum document published beside an artifact, derived from the artifact's URL on
 * its path alone: its query and fragment stay as they are, so a mirror's token in the query is
 * sent for the document too, and a suffix never lands inside the query's last value. A URL
 * without a query or fragment gets exactly the suffix or sibling name.
 */
public final class BesideTheArtifact {
  private BesideTheArtifact() {}

  /** {@code url} with {@code suffix} appended to its path: {@code .../kubelet.sha256?<query>}. */
  public static URI withSuffix(URI url, String suffix) {
    String raw = url.toString();
    int pathEnd = pathEnd(url, raw);
    String slash = url.getRawPath().isEmpty() ? "/" : "";
    return URI.create(raw.substring(0, pathEnd) + slash + suffix + raw.substring(pathEnd));
  }

  /** {@code url} with the last segment of its path replaced by {@code fileName}. */
  public static URI sibling(URI url, String fileName) {
    String raw = url.toString();
    int pathEnd = pathEnd(url, raw);
    if (url.getRawPath().isEmpty()) {
      return URI.create(raw.substring(0, pathEnd) + "/" + fileName + raw.substring(pathEnd));
    }
    int segmentStart = raw.lastIndexOf('/', pathEnd - 1) + 1;
    return URI.create(raw.substring(0, segmentStart) + fileName + raw.substring(pathEnd));
  }

  /** Where the path of {@code url} (hierarchical, with a host) ends in its text {@code raw}. */
  private static int pathEnd(URI url, String raw) {
    if (url.isOpaque() || url.getRawAuthority() == null) {
      throw new IllegalArgumentException("not a URL with a host: " + url);
    }
    int query = raw.indexOf('?');
    int fragment = raw.indexOf('#');
    int end = raw.length();
    if (query >= 0) {
      end = query;
    }
    if (fragment >= 0 && fragment < end) {
      end = fragment;
    }
    return end;
  }
}
