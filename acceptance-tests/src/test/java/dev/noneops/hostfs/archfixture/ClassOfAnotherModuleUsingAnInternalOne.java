package dev.noneops.hostfs.archfixture;

import dev.noneops.hostfs.internal.io.IoErrors;
import java.io.IOException;
import java.nio.file.Path;

/** Deliberately bad: a class outside adapter-host-fs, in one of its packages, using its internal I/O errors. */
public final class ClassOfAnotherModuleUsingAnInternalOne {
  private ClassOfAnotherModuleUsingAnInternalOne() {}

  public static IOException translate(IOException e) {
    return IoErrors.translate(e, "read", Path.of("/"));
  }
}
