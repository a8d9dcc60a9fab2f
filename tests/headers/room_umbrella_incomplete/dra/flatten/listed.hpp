// Listed by the umbrella.
#pragma once
