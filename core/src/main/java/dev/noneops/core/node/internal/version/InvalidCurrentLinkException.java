package dev.noneops.core.node.internal.version;

import dev.noneops.core.NoneopsException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The layout's {@code current} exists but does not name a version of the layout: it is not a
 * symlink, or it points outside the layout's version directories. No version is taken for the
 * active one on such a link.
 */
public final class InvalidCurrentLinkException extends NoneopsException {
  private static final long serialVersionUID = 1L;

  private final transient Path link;

  public InvalidCurrentLinkException(Path link, String reason) {
    super(Objects.requireNonNull(link, "link") + " " + reason);
    this.link = link;
  }

  /** The {@code current} link. */
  public Path link() {
    return link;
  }
}
