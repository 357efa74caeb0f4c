#ifndef ANGLED_H
#define ANGLED_H
#define ANGLED_COUNT 1
angled_h_guarded
#endif
