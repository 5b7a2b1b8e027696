package dev.noneops.core.node.internal.version;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Removes a directory tree without ever following a symlink or crossing into another mount; a
 * subtree that is still mounted is left in place and reported. Pruning removes version
 * directories through it; the node supplies the teardown's mount-safe walker.
 */
@FunctionalInterface
public interface TreeRemover {

  /**
   * Removes {@code dir} and everything below it that can be removed safely.
   *
   * @return what was left in place and why; empty when the tree is gone
   */
  public List<String> removeTree(Path dir) throws IOException;
}
