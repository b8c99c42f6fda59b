// Shared helpers, included from several headers: #pragma once keeps it to one copy.
#pragma once

#define PI 3.14159265

float Square(float x) { return x * x; }
