package dev.noneops.ports.host;

import java.io.IOException;

/** Reads the {@link HostInfo} of the machine the agent runs on. */
public interface HostFacts {
  HostInfo read() throws IOException;
}
