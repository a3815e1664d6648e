package interop.hornetq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import interop.common.Args;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hornetq.core.version.Version;
import org.hornetq.utils.VersionLoader;

/**
 * Prints HornetQ 2.4.7's own bytes for given values, packets and JMS bodies, encoded by HornetQ's
 * classes from Maven Central, as the golden vectors our codec is compared with
 * (test/fixtures/hornetq-2.4.7/README.md describes the files). Usage: {@code --out DIR}.
 */
public final class Vectors {
  private Vectors() {}

  public static void main(String[] argv) throws Exception {
    Path out = Path.of(new Args(argv).one("out"));
    Files.createDirectories(out);
    write(out.resolve("values.json"), ValueVectors.all());
    write(out.resolve("packets.json"), PacketVectors.all());
    write(out.resolve("jms-bodies.json"), JmsBodyVectors.all());
  }

  private static void write(Path file, ArrayNode vectors) throws IOException {
    Version version = VersionLoader.getVersion();
    ObjectNode document = TaggedJson.object();
    document.put("producedBy", "test/interop/java/hornetq Vectors (npm run interop:vectors)");
    document.put("hornetq", version.getFullVersion());
    document.put("hornetqIncrementingVersion", version.getIncrementingVersion());
    document.set("vectors", vectors);
    Files.writeString(file, TaggedJson.MAPPER.writeValueAsString(document) + "\n");
    System.out.println(file + ": " + vectors.size() + " vectors");
  }
}
