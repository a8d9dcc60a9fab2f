// Left out of the umbrella.
#pragma once
