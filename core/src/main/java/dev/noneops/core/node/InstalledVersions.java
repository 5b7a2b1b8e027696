package dev.noneops.core.node;

import java.util.List;

/**
 * Every installed version with its size, whether it is active and why a prune would keep it,
 * and every version an interrupted prune is still removing (see {@link NodeInspection#installedVersions()}).
 *
 * @param activeVersion the target of {@code current}; null when there is none
 * @param versions the installed versions, then the ones being removed
 */
public record InstalledVersions(String activeVersion, List<Version> versions) {

  /**
   * One installed version, or one being removed (the next recover or prune finishes it). Sizes
   * come from the manifest of a complete version and from the disk otherwise.
   */
  public record Version(
      String version,
      boolean active,
      boolean complete,
      boolean beingRemoved,
      long bytes,
      long files,
      List<String> keptBecause) {}
}
