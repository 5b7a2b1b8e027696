package dev.noneops.testkit.fs;

import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The {@link MountTable} port over the simulated file system's mounts. */
public final class SimMountTable implements MountTable {
  private static final String PORT = "mounts";

  private final PortGate gate;
  private final SimFileSystem fs;

  public SimMountTable(PortGate gate, SimFileSystem fs) {
    this.gate = gate;
    this.fs = fs;
  }

  @Override
  public List<MountEntry> mounts() throws IOException {
    return gate.call(PORT, "mounts", false, List.of(), fs::mountEntries);
  }

  @Override
  public void unmount(Path mountPoint, Set<UnmountFlag> flags) throws IOException {
    gate.call(PORT, "unmount", true, PortGate.args(mountPoint, new TreeSet<>(flags)), () -> {
      fs.unmount(mountPoint, flags);
      return null;
    });
  }
}
