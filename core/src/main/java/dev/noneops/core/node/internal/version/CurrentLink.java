package dev.noneops.core.node.internal.version;

import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.VersionNames;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.files.HostFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code current} link of the layout: which version is active, and the flip to another one,
 * which is a single durable {@code rename(2)} of a temp link (so {@code current} always names
 * exactly one version, the old or the new). Only a complete version (one with its manifest) is
 * ever activated.
 */
public final class CurrentLink {
  private final HostFiles files;
  private final Layout layout;

  public CurrentLink(HostFiles files, Layout layout) {
    this.files = Objects.requireNonNull(files, "files");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /**
   * The active version; empty when there is no {@code current} link.
   *
   * @throws InvalidCurrentLinkException when {@code current} is not a symlink to a version directory of the layout
   */
  public Optional<String> active() throws IOException {
    Path current = layout.current();
    Optional<FileMeta> meta = files.lstat(current);
    if (meta.isEmpty()) {
      return Optional.empty();
    }
    if (!meta.get().isSymlink()) {
      throw new InvalidCurrentLinkException(
          current,
          "is a " + meta.get().type().name().toLowerCase(Locale.ROOT)
              + ", not the symlink naming the active version");
    }
    String target = files.readLink(current);
    Path name = Path.of(target).getFileName();
    if (name == null
        || !VersionNames.isSafe(name.toString())
        || !layout
            .versionDir(name.toString())
            .equals(current.resolveSibling(target).normalize())) {
      throw new InvalidCurrentLinkException(
          current,
          "points at '" + target + "', which is not a version directory of " + layout.root());
    }
    return Optional.of(name.toString());
  }

  /** Durably points {@code current} at {@code version}; nothing is written when it already does. */
  public void pointAt(String version) throws IOException {
    VersionNames.requireSafe(version);
    if (active().filter(version::equals).isPresent()) {
      return;
    }
    Path manifest = layout.manifest(version);
    if (!files.exists(manifest)) {
      throw new IllegalStateException("refusing to activate " + version + ": " + manifest
          + " is missing, the version is incomplete");
    }
    files.symlinkDurably(layout.current(), version);
  }
}
