package dev.noneops.core.node.internal.version;

import java.util.ArrayList;
import java.util.List;

/**
 * Validation of relative paths taken from archives and manifests: no absolute paths, no
 * {@code ..}, no backslashes or NUL, nothing empty. {@code .} components and a leading
 * {@code ./} are dropped.
 */
public final class ArchivePaths {
  private ArchivePaths() {}

  /** The path's components after dropping {@code .}; an error naming the path if it is unsafe. */
  public static List<String> components(String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    if (path.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("path contains NUL: '" + path.replace("\0", "\\0") + "'");
    }
    if (path.indexOf('\\') >= 0) {
      throw new IllegalArgumentException("path contains a backslash: '" + path + "'");
    }
    if (path.startsWith("/")) {
      throw new IllegalArgumentException("absolute path: '" + path + "'");
    }
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        throw new IllegalArgumentException("path climbs out with '..': '" + path + "'");
      }
      parts.add(part);
    }
    return parts;
  }

  /** {@code path} when it is a safe, normalised, non-empty relative path. */
  public static String requireRelative(String path) {
    List<String> parts = components(path);
    if (parts.isEmpty() || !String.join("/", parts).equals(path)) {
      throw new IllegalArgumentException("not a normalised relative path: '" + path + "'");
    }
    return path;
  }

  /**
   * Whether a link stored at {@code entryPath} with target {@code linkTarget} stays inside the
   * archive's tree: relative, and never climbing above the root when resolved from the link's
   * directory.
   */
  public static boolean linkStaysInside(
      List<String> entryComponents, String linkTarget, boolean hardLink) {
    if (linkTarget.isEmpty() || linkTarget.startsWith("/") || linkTarget.indexOf('\0') >= 0) {
      return false;
    }
    List<String> resolved = new ArrayList<>(
        hardLink ? List.of() : entryComponents.subList(0, Math.max(0, entryComponents.size() - 1)));
    for (String part : linkTarget.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.equals("..")) {
        if (resolved.isEmpty()) {
          return false;
        }
        resolved.remove(resolved.size() - 1);
      } else {
        resolved.add(part);
      }
    }
    return true;
  }
}
