package dev.noneops.ports.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A process table that implements only the full reads still answers the detail-aware ones correctly. */
class ProcessTableDefaultsTest {
  private static final ProcessInfo SHIM = new ProcessInfo(
      42,
      Optional.of("/opt/node/v1/bin/shim"),
      List.of("shim", "-id", "a"),
      "/kubepods.slice",
      List.of("/opt/node/v1/bin/shim", "/lib/libc.so.6"));

  /** Reads everything, always; knows nothing of details. */
  private static final ProcessTable FULL_ONLY = new ProcessTable() {
    @Override
    public List<ProcessInfo> list() {
      return List.of(SHIM);
    }

    @Override
    public Optional<ProcessInfo> get(long pid) {
      return pid == SHIM.pid() ? Optional.of(SHIM) : Optional.empty();
    }

    @Override
    public ProcessIdentity self() {
      return new ProcessIdentity(1, 1);
    }

    @Override
    public Optional<ProcessIdentity> identity(long pid) {
      return Optional.empty();
    }

    @Override
    public boolean signal(long pid, int signal) {
      return false;
    }
  };

  @Test
  void withoutDetailsTheMappedFilesAreLeftOutAndTheRestKept() throws Exception {
    ProcessInfo lean = new ProcessInfo(42, SHIM.exe(), SHIM.argv(), SHIM.cgroup(), List.of());

    assertThat(FULL_ONLY.list(Set.of())).containsExactly(lean);
    assertThat(FULL_ONLY.get(42, Set.of())).contains(lean);
    assertThat(FULL_ONLY.get(7, Set.of())).isEmpty();
  }

  @Test
  void askedForMappedFilesTheProcessIsWhole() throws Exception {
    assertThat(FULL_ONLY.list(Set.of(ProcessDetail.MAPPED_FILES))).containsExactly(SHIM);
    assertThat(FULL_ONLY.get(42, ProcessDetail.all())).contains(SHIM);
    assertThat(SHIM.withOnly(ProcessDetail.all())).isSameAs(SHIM);
  }

  @Test
  void detailsAreRequired() {
    assertThatThrownBy(() -> FULL_ONLY.list(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("details");
    assertThatThrownBy(() -> FULL_ONLY.get(42, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("details");
    assertThatThrownBy(() -> SHIM.withOnly(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("details");
  }
}
