/*
 * fsguard.c - the directories flowbench never uses for a fileset.
 *
 * One table of system directories, each of one kind.  A system tree
 * holds the operating system, its state or a virtual file system: nothing
 * at or below it is ever a fileset's directory, except the scratch space
 * below a shared directory inside it (/var/tmp in /var, /dev/shm in
 * /dev).  A shared directory (/tmp, /home, /mnt) may hold filesets but
 * never is one: cleaning /tmp itself would touch everybody's files.  The
 * home directories of the password database are refused themselves too,
 * and every directory holding a system directory or a home is refused:
 * adopting /var would hold /var/lib.  Inside a home is allowed: a user's
 * ~/scratch is theirs, permissions keep other users out, and root running
 * in /home/alice/bench is plausible.  Where a shared directory is a link
 * into a tree (OSTree systems: /home -> /var/home, /mnt -> /var/mnt),
 * below it is scratch space like below /var/tmp.
 *
 * Sources for the table: the Filesystem Hierarchy Standard 3.0 (ch. 3 the
 * root file system, ch. 5 /var, ch. 6 Linux: /proc, /sys), systemd's
 * file-hierarchy(7) (/efi, /run/user, /dev/shm as tmpfs), and the /var
 * directories distributions add (/var/www, /var/db, /var/empty, ...),
 * which is why all of /var is a tree, not just the FHS ones.
 */
#include "runtime/fileset/fsguard.h"

#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How a system directory is guarded, and what the message calls it. */
struct kind {
	const char *noun;
	bool below;	/* refused below it too, or only itself */
};

static const struct kind tree = { "system tree", true };
static const struct kind shared = { "shared directory", false };
static const struct kind home_dir = { "home directory", false };

struct sysdir {
	const char *path;
	const struct kind *kind;
};

/*
 * Subtrees are named (/var/lib in /var) for the message: the deepest
 * tree holding a directory is the one reported.
 */
static const struct sysdir sysdirs[] = {
	/* refused themselves; a directory inside them is scratch space */
	{ "/tmp", &shared }, { "/var/tmp", &shared }, { "/dev/shm", &shared },
	{ "/run/shm", &shared }, { "/mnt", &shared }, { "/media", &shared },
	{ "/home", &shared }, { "/root", &home_dir },
	/* FHS 3.0 ch. 5: /var, then the distributions' additions */
	{ "/var/account", &tree }, { "/var/backups", &tree },
	{ "/var/cache", &tree }, { "/var/crash", &tree }, { "/var/cron", &tree },
	{ "/var/games", &tree }, { "/var/lib", &tree }, { "/var/local", &tree },
	{ "/var/lock", &tree }, { "/var/log", &tree }, { "/var/mail", &tree },
	{ "/var/msgs", &tree }, { "/var/opt", &tree }, { "/var/preserve", &tree },
	{ "/var/run", &tree }, { "/var/spool", &tree }, { "/var/yp", &tree },
	{ "/var/db", &tree }, { "/var/empty", &tree }, { "/var/www", &tree },
	{ "/var", &tree },
	/* FHS 3.0 ch. 3: the root file system; ch. 6: Linux */
	{ "/boot/efi", &tree }, { "/boot", &tree }, { "/bin", &tree },
	{ "/dev", &tree }, { "/etc", &tree }, { "/lib", &tree },
	{ "/lib32", &tree }, { "/lib64", &tree }, { "/libx32", &tree },
	{ "/opt", &tree }, { "/run/user", &tree }, { "/run", &tree },
	{ "/sbin", &tree }, { "/srv", &tree }, { "/usr", &tree },
	{ "/proc", &tree }, { "/sys", &tree },
	/* beyond the FHS: the ESP, fsck's, snaps, Nix, Guix, OSTree, SELinux */
	{ "/efi", &tree }, { "/lost+found", &tree }, { "/snap", &tree },
	{ "/nix", &tree }, { "/gnu", &tree }, { "/ostree", &tree },
	{ "/sysroot", &tree }, { "/selinux", &tree },
};

#define NSYSDIRS (sizeof(sysdirs) / sizeof(sysdirs[0]))

/* A system directory where it really is: its own path or a link's target. */
struct place {
	const char *path;
	const char *name;
	const struct kind *kind;
};

static size_t n_places(const struct fsguard_homes *h)
{
	return NSYSDIRS + h->nlinks;
}

/* The table's entries, then the links found to them. */
static struct place place_at(const struct fsguard_homes *h, size_t i)
{
	const struct sysdir *s;

	if (i < NSYSDIRS)
		return (struct place){ sysdirs[i].path, sysdirs[i].path, sysdirs[i].kind };
	s = &sysdirs[h->link[i - NSYSDIRS].sysdir];
	return (struct place){ h->link[i - NSYSDIRS].real, s->path, s->kind };
}

/* Is `path` `base` or inside it?  ("/etcetera" is not inside "/etc".) */
static bool at_or_below(const char *path, const char *base)
{
	size_t n = strlen(base);

	if (n == 1 && base[0] == '/')
		return path[0] == '/';
	return strncmp(path, base, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

static bool strictly_below(const char *path, const char *base)
{
	return at_or_below(path, base) && strcmp(path, base) != 0;
}

/*
 * `path` (absolute) without ".", "..", repeated or trailing slashes,
 * lexically: no file-system access.  NULL when out of memory.
 */
static char *normalize(const char *path)
{
	char *out = malloc(strlen(path) + 2);
	const char *p = path;
	size_t n = 0;

	if (!out)
		return NULL;
	while (*p) {
		const char *s;
		size_t len;

		while (*p == '/')
			p++;
		s = p;
		while (*p && *p != '/')
			p++;
		len = (size_t)(p - s);
		if (len == 0 || (len == 1 && s[0] == '.'))
			continue;
		if (len == 2 && s[0] == '.' && s[1] == '.') {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, s, len);
		n += len;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

/*
 * Where the absolute `path` really is: realpath() when it exists; else
 * normalized, its longest existing prefix resolved, the rest appended,
 * so a home not created yet below a symbolic link (/home -> /data/home)
 * is found where it will be.  NULL when out of memory.
 */
static char *resolve(const char *path)
{
	char *norm, *prefix, *real = realpath(path, NULL), *out;
	size_t cut;

	if (real)
		return real;
	if (!(norm = normalize(path)))
		return NULL;
	if (!(prefix = strdup(norm))) {
		free(norm);
		return NULL;
	}
	cut = strlen(norm);
	while (!(real = realpath(prefix, NULL)) && cut > 1) {
		cut = (size_t)(strrchr(prefix, '/') - prefix);
		prefix[cut > 0 ? cut : 1] = '\0';
	}
	free(prefix);
	if (!real)
		return norm;
	if (asprintf(&out, "%s%s", strcmp(real, "/") ? real : "",
		     norm[cut] || strcmp(real, "/") ? norm + cut : "/") < 0)
		out = NULL;
	free(real);
	free(norm);
	return out;
}

/* Does `path` have a ".." component (which only realpath() gets right)? */
static bool has_dotdot(const char *path)
{
	const char *p = path;

	while ((p = strstr(p, "..")) != NULL) {
		if ((p == path || p[-1] == '/') && (p[2] == '\0' || p[2] == '/'))
			return true;
		p += 2;
	}
	return false;
}

/*
 * resolve() for a home, cheaper: most homes share their parent (/home),
 * resolved once and kept in h; the home itself costs one readlink(),
 * and a full resolve() only when it is a symbolic link.  10,000 passwd
 * entries cost 10,000 system calls, not one per component.
 */
static char *resolve_home(struct fsguard_homes *h, const char *path)
{
	char *norm, *slash, *out = NULL;
	const char *parent;
	char c;

	if (has_dotdot(path))
		return resolve(path);
	if (!(norm = normalize(path)))
		return NULL;
	if (strcmp(norm, "/") == 0)
		return norm;
	slash = strrchr(norm, '/');
	*slash = '\0';
	parent = slash == norm ? "/" : norm;
	if (!h->parent || strcmp(h->parent, parent) != 0) {
		free(h->parent);
		free(h->parent_real);
		h->parent = strdup(parent);
		h->parent_real = resolve(parent);
		if (!h->parent || !h->parent_real)
			goto out;
	}
	if (asprintf(&out, "%s/%s", strcmp(h->parent_real, "/") ? h->parent_real : "",
		     slash + 1) < 0) {
		out = NULL;
		goto out;
	}
	if (readlink(out, &c, 1) >= 0) {
		free(out);
		out = resolve(path);
	}
out:
	free(norm);
	return out;
}

/* Write the refusal's phrase; true, so a rule can `return say(...)`. */
static bool __attribute__((format(printf, 2, 3)))
say(struct fsguard_homes *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap);
	va_end(ap);
	return true;
}

/* " (at /data/opt)" when the place is a link's target, else "". */
static const char *at_suffix(const struct place *p, char *buf, size_t len)
{
	if (p->path == p->name)
		return "";
	snprintf(buf, len, " (at %s)", p->path);
	return buf;
}

/*
 * Is `dir`, inside the system tree at `tree`, a place refused only
 * itself inside that tree, or in the scratch space below one (/var/tmp,
 * /var/tmp/x in /var)?  sysdir_rule refuses the place itself.
 */
static bool in_scratch(const char *dir, const char *tree_path,
		       const struct fsguard_homes *h)
{
	for (size_t i = 0; i < n_places(h); i++) {
		struct place q = place_at(h, i);

		if (!q.kind->below && strictly_below(q.path, tree_path) &&
		    at_or_below(dir, q.path))
			return true;
	}
	return false;
}

/*
 * The deepest system tree `dir` is or is inside (/var/lib rather than
 * /var, whatever the order links were found in); n_places(h) when none.
 */
static size_t tree_of(const char *dir, const struct fsguard_homes *h)
{
	size_t best = n_places(h), best_len = 0;

	for (size_t i = 0; i < n_places(h); i++) {
		struct place p = place_at(h, i);
		size_t len = strlen(p.path);

		if (p.kind->below && len > best_len && at_or_below(dir, p.path) &&
		    !in_scratch(dir, p.path, h)) {
			best = i;
			best_len = len;
		}
	}
	return best;
}

static bool root_rule(const char *dir, struct fsguard_homes *h)
{
	return strcmp(dir, "/") == 0 && say(h, "it is the root directory");
}

/* A home directory, or a directory holding one. */
static bool home_rule(const char *dir, struct fsguard_homes *h)
{
	for (size_t i = 0; i < h->n; i++) {
		if (strcmp(dir, h->home[i].dir) == 0)
			return say(h, "it is the home directory of %s", h->home[i].whose);
	}
	for (size_t i = 0; i < h->n; i++) {
		if (strictly_below(h->home[i].dir, dir))
			return say(h, "it holds the home directory of %s", h->home[i].whose);
	}
	return false;
}

/* A system directory itself (either kind). */
static bool sysdir_rule(const char *dir, struct fsguard_homes *h)
{
	char at[FSGUARD_WHY_MAX / 2];

	for (size_t i = 0; i < n_places(h); i++) {
		struct place p = place_at(h, i);

		if (strcmp(dir, p.path) != 0)
			continue;
		return say(h, "it is the %s %s%s%s", p.kind->noun, p.name,
			   at_suffix(&p, at, sizeof(at)),
			   p.kind->below ? "" : " (use a directory inside it)");
	}
	return false;
}

/* Inside a system tree, outside its scratch space. */
static bool tree_rule(const char *dir, struct fsguard_homes *h)
{
	char at[FSGUARD_WHY_MAX / 2];
	size_t i = tree_of(dir, h);
	struct place p;

	if (i == n_places(h))
		return false;
	p = place_at(h, i);
	return say(h, "it is inside the %s %s%s", p.kind->noun, p.name,
		   at_suffix(&p, at, sizeof(at)));
}

/* A directory above a system directory (/var holds /var/lib). */
static bool holds_rule(const char *dir, struct fsguard_homes *h)
{
	char at[FSGUARD_WHY_MAX / 2];

	for (size_t i = 0; i < n_places(h); i++) {
		struct place p = place_at(h, i);

		if (strictly_below(p.path, dir))
			return say(h, "it holds the %s %s%s", p.kind->noun, p.name,
				   at_suffix(&p, at, sizeof(at)));
	}
	return false;
}

/*
 * An existing directory that is its owner's home: finds the homes of a
 * password database that getpwent() does not list (LDAP, sssd).
 */
static bool owner_rule(const char *dir, struct fsguard_homes *h)
{
	struct passwd *pw;
	struct stat st;
	char *owners;
	bool same;

	if (lstat(dir, &st) < 0 || !(pw = getpwuid(st.st_uid)) ||
	    !pw->pw_dir || pw->pw_dir[0] != '/')
		return false;
	if (!(owners = resolve(pw->pw_dir)))
		return say(h, "flowbench ran out of memory checking it");
	same = strcmp(owners, dir) == 0;
	free(owners);
	return same && say(h, "it is the home directory of user '%s' (its owner)",
			   pw->pw_name);
}

/* The rules in the order they are tried: the first refusal is reported. */
static bool (*const guard_rules[])(const char *, struct fsguard_homes *) = {
	root_rule, home_rule, sysdir_rule, tree_rule, holds_rule, owner_rule,
};
#define NRULES (sizeof(guard_rules) / sizeof(guard_rules[0]))

const char *fsguard_refusal(const char *dir, struct fsguard_homes *h)
{
	char *d;
	bool refused = false;

	if (dir[0] != '/')
		return "it is not an absolute path";
	if (h->incomplete)
		return "flowbench ran out of memory reading the home directories, "
		       "so it cannot tell whether it is one";
	if (!(d = normalize(dir)))
		return "flowbench ran out of memory checking it";
	for (size_t i = 0; !refused && i < NRULES; i++)
		refused = guard_rules[i](d, h);
	free(d);
	return refused ? h->why : NULL;
}

void fsguard_homes_init(struct fsguard_homes *h)
{
	memset(h, 0, sizeof(*h));
}

/* Append a home (taking `dir` and `whose`); false when out of memory. */
static bool push_home(struct fsguard_homes *h, char *dir, char *whose)
{
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 32;
		struct fsguard_home *v = realloc(h->home, cap * sizeof(*v));

		if (!v)
			return false;
		h->home = v;
		h->cap = cap;
	}
	h->home[h->n] = (struct fsguard_home){ dir, whose, h->n };
	h->n++;
	return true;
}

/* Add `dir` (taken) unless "/" or inside a system tree; false when OOM. */
static bool add_one(struct fsguard_homes *h, char *dir, const char *whose)
{
	char *w;

	if (strcmp(dir, "/") == 0 || tree_of(dir, h) < n_places(h)) {
		free(dir);
		return true;
	}
	if (!(w = strdup(whose)) || !push_home(h, dir, w)) {
		free(w);
		free(dir);
		return false;
	}
	return true;
}

void fsguard_homes_add(struct fsguard_homes *h, const char *user,
		       const char *source, const char *dir)
{
	char *real, *literal, *whose;
	bool ok;

	if (!dir || dir[0] != '/')
		return;
	real = resolve_home(h, dir);
	literal = normalize(dir);
	if (user)
		ok = asprintf(&whose, "user '%s' (%s)", user, source) >= 0;
	else
		ok = asprintf(&whose, "the current user (%s)", source) >= 0;
	if (!ok)
		whose = NULL;
	if (!real || !literal || !whose) {
		h->incomplete = true;
		free(real);
		free(literal);
		free(whose);
		return;
	}
	/* the literal form too, when a link leads to the home */
	if (strcmp(real, literal) == 0) {
		free(literal);
		literal = NULL;
	}
	if (!add_one(h, real, whose) || (literal && !add_one(h, literal, whose)))
		h->incomplete = true;
	free(whose);
}

static bool push_link(struct fsguard_homes *h, char *real, size_t sysdir)
{
	struct fsguard_link *v = realloc(h->link, (h->nlinks + 1) * sizeof(*v));

	if (!v)
		return false;
	h->link = v;
	h->link[h->nlinks++] = (struct fsguard_link){ real, sysdir };
	return true;
}

bool fsguard_homes_add_link(struct fsguard_homes *h, const char *sysdir,
			    const char *real)
{
	char *r;

	for (size_t i = 0; i < NSYSDIRS; i++) {
		if (strcmp(sysdirs[i].path, sysdir) != 0)
			continue;
		if (!(r = normalize(real)) || !push_link(h, r, i)) {
			free(r);
			h->incomplete = true;
		}
		return true;
	}
	return false;
}

/* The system directories of this machine that are symbolic links. */
static void add_links(struct fsguard_homes *h)
{
	for (size_t i = 0; i < NSYSDIRS; i++) {
		char *r = realpath(sysdirs[i].path, NULL);

		if (!r || strcmp(r, sysdirs[i].path) == 0) {
			free(r);
		} else if (!push_link(h, r, i)) {
			free(r);
			h->incomplete = true;
		}
	}
}

static int by_dir_then_seq(const void *a, const void *b)
{
	const struct fsguard_home *x = a, *y = b;
	int c = strcmp(x->dir, y->dir);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* One entry per directory, naming the owner found first. */
static void drop_duplicates(struct fsguard_homes *h)
{
	size_t kept = 0;

	if (h->n == 0)
		return;
	qsort(h->home, h->n, sizeof(h->home[0]), by_dir_then_seq);
	for (size_t i = 1; i < h->n; i++) {
		if (strcmp(h->home[i].dir, h->home[kept].dir) == 0) {
			free(h->home[i].dir);
			free(h->home[i].whose);
		} else {
			h->home[++kept] = h->home[i];
		}
	}
	h->n = kept + 1;
}

void fsguard_homes_get(struct fsguard_homes *h)
{
	struct passwd *pw;
	const char *sudo = getenv("SUDO_USER");

	fsguard_homes_init(h);
	add_links(h);
	setpwent();
	while ((pw = getpwent()))
		fsguard_homes_add(h, pw->pw_name, "passwd", pw->pw_dir);
	endpwent();
	pw = getpwuid(getuid());
	if (pw)
		fsguard_homes_add(h, pw->pw_name, "passwd", pw->pw_dir);
	fsguard_homes_add(h, pw ? pw->pw_name : NULL, "$HOME", getenv("HOME"));
	if (sudo && (pw = getpwnam(sudo)))
		fsguard_homes_add(h, pw->pw_name, "passwd", pw->pw_dir);
	drop_duplicates(h);
}

void fsguard_homes_free(struct fsguard_homes *h)
{
	for (size_t i = 0; i < h->n; i++) {
		free(h->home[i].dir);
		free(h->home[i].whose);
	}
	for (size_t i = 0; i < h->nlinks; i++)
		free(h->link[i].real);
	free(h->home);
	free(h->link);
	free(h->parent);
	free(h->parent_real);
	h->parent = h->parent_real = NULL;
	h->home = NULL;
	h->link = NULL;
	h->n = h->cap = h->nlinks = 0;
	h->incomplete = false;
}
