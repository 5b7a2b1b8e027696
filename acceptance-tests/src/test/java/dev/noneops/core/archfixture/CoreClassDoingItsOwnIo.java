package dev.noneops.core.archfixture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A deliberately bad core class: it reads a file, prints and sleeps by itself. Test fixture only. */
public final class CoreClassDoingItsOwnIo {
  private CoreClassDoingItsOwnIo() {}

  static String readAndPrint(Path path) throws IOException, InterruptedException {
    String content = Files.readString(path);
    System.out.println(content);
    Thread.sleep(1);
    return content;
  }
}
