package dev.noneops.hostfs.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProcLocksTest {
  /** st_dev of 253:1 (a device-mapper volume), as glibc encodes it. */
  private static final long DM_1 = (253L << 8) | 1;

  private static final List<String> LOCKS = List.of(
      "1: POSIX  ADVISORY  WRITE 812 00:1a:4711 0 EOF",
      "2: FLOCK  ADVISORY  WRITE 4242 fd:01:123456 0 EOF",
      "2: -> FLOCK  ADVISORY  WRITE 5151 fd:01:123456 0 EOF",
      "3: FLOCK  ADVISORY  WRITE 777 00:2f:987 0 EOF");

  @Test
  void theHolderIsTheLineOfTheFilesDeviceAndInodeNotAWaiter() {
    assertThat(ProcLocks.holder(LOCKS, DM_1, 123456)).hasValue(4242);
    assertThat(ProcLocks.major(DM_1)).isEqualTo(253);
    assertThat(ProcLocks.minor(DM_1)).isEqualTo(1);
  }

  @Test
  void aDeviceNoLineNamesFallsBackToTheOneLineOfTheInode() {
    assertThat(ProcLocks.holder(LOCKS, 0x30, 987)).hasValue(777);
    assertThat(ProcLocks.holder(LOCKS, DM_1, 55)).isEmpty();
    assertThat(ProcLocks.holder(
            List.of(
                "1: FLOCK  ADVISORY  WRITE 1 00:10:9 0 EOF",
                "2: FLOCK  ADVISORY  WRITE 2 00:11:9 0 EOF"),
            0x30,
            9))
        .as("two files of that inode on other devices: no guess")
        .isEmpty();
  }
}
