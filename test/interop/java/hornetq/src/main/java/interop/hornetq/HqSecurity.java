package interop.hornetq;

import interop.common.Args;
import interop.common.Pairs;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hornetq.core.config.Configuration;
import org.hornetq.core.security.Role;
import org.hornetq.jms.server.embedded.EmbeddedJMS;
import org.hornetq.spi.core.security.HornetQSecurityManagerImpl;

/**
 * HqServer's users and security settings, each option value one {@link Pairs} word:
 *
 * <pre>
 * --user name=N;password=P;roles=R1,R2...
 * --security-setting match=jms.queue.#;send=R1,R2;consume=R3...   (HornetQ's permission names)
 * </pre>
 *
 * With neither, security is off. With either, it is on, as a hornetq-configuration.xml with
 * security-settings and a hornetq-users.xml would have it (users in HornetQ's own in-memory
 * security manager, no default user).
 */
final class HqSecurity {
  private static final List<String> PERMISSIONS =
      List.of("send", "consume", "createDurableQueue", "deleteDurableQueue", "createNonDurableQueue", "deleteNonDurableQueue", "manage");

  private HqSecurity() {}

  static void apply(Args args, Configuration config, EmbeddedJMS server) {
    boolean enabled = args.has("user") || args.has("security-setting");
    config.setSecurityEnabled(enabled);
    if (!enabled) return;
    HornetQSecurityManagerImpl users = new HornetQSecurityManagerImpl();
    for (String word : args.all("user")) {
      Map<String, String> user = Pairs.parse(word, "--user");
      String name = Pairs.take(user, "name", "--user");
      users.addUser(name, Pairs.take(user, "password", "--user"));
      for (String role : list(Pairs.take(user, "roles", "--user"))) users.addRole(name, role);
    }
    server.setSecurityManager(users);
    for (String word : args.all("security-setting")) {
      Map<String, String> setting = Pairs.parse(word, "--security-setting");
      String match = Pairs.take(setting, "match", "--security-setting");
      config.getSecurityRoles().put(match, roles(setting));
    }
  }

  /** HornetQ's Roles for one match: one per role name, with each permission that names it. */
  private static Set<Role> roles(Map<String, String> grants) {
    for (String permission : grants.keySet()) {
      if (!PERMISSIONS.contains(permission)) throw new IllegalArgumentException("--security-setting: unknown permission '" + permission + "'");
    }
    Set<String> names = new HashSet<>();
    grants.values().forEach(roles -> names.addAll(list(roles)));
    Set<Role> roles = new HashSet<>();
    for (String name : names) {
      roles.add(
          new Role(
              name,
              grants(grants, "send", name),
              grants(grants, "consume", name),
              grants(grants, "createDurableQueue", name),
              grants(grants, "deleteDurableQueue", name),
              grants(grants, "createNonDurableQueue", name),
              grants(grants, "deleteNonDurableQueue", name),
              grants(grants, "manage", name)));
    }
    return roles;
  }

  private static boolean grants(Map<String, String> grants, String permission, String role) {
    return list(grants.getOrDefault(permission, "")).contains(role);
  }

  private static List<String> list(String commaSeparated) {
    return commaSeparated.isEmpty() ? List.of() : List.of(commaSeparated.split(","));
  }
}
