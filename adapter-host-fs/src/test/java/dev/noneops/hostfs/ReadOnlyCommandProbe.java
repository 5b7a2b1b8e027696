package dev.noneops.hostfs;

import dev.noneops.ports.files.HostFiles;
import java.nio.file.Path;

/**
 * A child JVM's main: builds the real host and reads as a read-only command does (existence,
 * content, a symlink's target, a listing, process-free facts), so the parent can see which classes
 * that loaded.
 */
public final class ReadOnlyCommandProbe {

  private ReadOnlyCommandProbe() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    RealHost host = RealHost.create();
    HostFiles files = host.files();
    if (!files.exists(dir.resolve("current")) || files.exists(dir.resolve("journal.json"))) {
      throw new IllegalStateException("unexpected existence answers in " + dir);
    }
    System.out.println("link=" + files.readLink(dir.resolve("current")));
    System.out.println("content=" + files.readString(dir.resolve("applied.json")));
    System.out.println("entries=" + files.list(dir));
    System.out.println("kernel=" + host.facts().read().kernelRelease());
  }
}
